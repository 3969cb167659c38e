/* A judge of Pousse (UVa 844, the waterloo rules): single-game and multi-case input. Each row and
 * column keeps its count of each colour, so a move costs the length of the pushed segment.
 * Built with -DPLANT_MOVER_ONLY it has a planted bug: only the mover's straights count, so a
 * push that completes a straight of the opponent never ends the game. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n;
static char *board; /* n * n squares: '.', 'X' or 'O' */
/* Markers of each colour in each row and column: cnt[colour][line], rows first, then columns. */
static int *cnt[2];

#define AT(r, c) board[(r) * n + (c)]

static int colour(char v) { return v == 'X' ? 0 : 1; }

/* Sets square (r, c) to v, keeping the counts. */
static void set(int r, int c, char v) {
    char old = AT(r, c);
    if (old == v) return;
    if (old != '.') { cnt[colour(old)][r]--; cnt[colour(old)][n + c]--; }
    if (v != '.') { cnt[colour(v)][r]++; cnt[colour(v)][n + c]++; }
    AT(r, c) = v;
}

static void push(char edge, int k, char mover) {
    int dr = 0, dc = 0, r = 0, c = 0;
    switch (edge) {
    case 'L': r = k; c = 0; dc = 1; break;
    case 'R': r = k; c = n - 1; dc = -1; break;
    case 'T': r = 0; c = k; dr = 1; break;
    default: r = n - 1; c = k; dr = -1; break;
    }
    int last = n - 1;
    for (int i = 0; i < n; i++) {
        if (AT(r + i * dr, c + i * dc) == '.') { last = i; break; }
    }
    for (int i = last; i > 0; i--)
        set(r + i * dr, c + i * dc, AT(r + (i - 1) * dr, c + (i - 1) * dc));
    set(r, c, mover);
}

static void straights(int *x, int *o) {
    *x = *o = 0;
    for (int line = 0; line < 2 * n; line++) {
        *x += cnt[0][line] == n;
        *o += cnt[1][line] == n;
    }
}

static char line[64];

static int next_line(void) {
    if (!fgets(line, sizeof line, stdin)) return 0;
    line[strcspn(line, "\r\n")] = 0;
    return 1;
}

/* Plays one game of size `size`; the first move line may already be in `line`. */
static const char *game(int size, int have_line) {
    n = size;
    board = realloc(board, (size_t)n * n);
    memset(board, '.', (size_t)n * n);
    for (int k = 0; k < 2; k++) cnt[k] = calloc(2 * (size_t)n, sizeof **cnt);
    const char *verdict = "TIE GAME";
    int decided = 0, move = 0;
    while (have_line || next_line()) {
        have_line = 0;
        if (strcmp(line, "QUIT") == 0) break;
        move++;
        if (decided) continue;
        char mover = move % 2 ? 'X' : 'O';
        push(line[0], atoi(line + 1) - 1, mover);
        int x, o;
        straights(&x, &o);
#ifdef PLANT_MOVER_ONLY
        if (mover == 'X') o = 0; else x = 0;
#endif
        if (x != o) {
            verdict = x > o ? "X WINS" : "O WINS";
            decided = 1;
        }
    }
    for (int k = 0; k < 2; k++) free(cnt[k]);
    return verdict;
}

int main(void) {
    if (!next_line()) return 1;
    int first = atoi(line);
    if (!next_line()) { puts(game(first, 0)); return 0; }
    if (line[0] != 0) { puts(game(first, 1)); return 0; }
    for (int t = 0; t < first; t++) {
        if (t > 0) { next_line(); putchar('\n'); }
        next_line();
        puts(game(atoi(line), 0));
    }
    return 0;
}
