/* Pousse (UVa 844 rules): one game, or T games after a count and an empty line.
 * Counts per line as in judge.c; a push from the right or the bottom into a full line only
 * replaces the marker at the entry square (a wrong answer: that push should move the line). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n, *rows[2], *cols[2], full[2];
static char *board;

static void place(int r, int c, char v) {
    char old = board[r * n + c];
    if (old == v) return;
    if (old != '.') {
        int k = old == 'O';
        full[k] -= (rows[k][r] == n) + (cols[k][c] == n);
        rows[k][r]--, cols[k][c]--;
    }
    if (v != '.') {
        int k = v == 'O';
        rows[k][r]++, cols[k][c]++;
        full[k] += (rows[k][r] == n) + (cols[k][c] == n);
    }
    board[r * n + c] = v;
}

static void push(char edge, int k, char who) {
    int r = 0, c = 0, dr = 0, dc = 0;
    if (edge == 'L') r = k, dc = 1;
    else if (edge == 'R') r = k, c = n - 1, dc = -1;
    else if (edge == 'T') c = k, dr = 1;
    else r = n - 1, c = k, dr = -1;
    int end = n - 1;
    for (int i = 0; i < n; i++)
        if (board[(r + i * dr) * n + c + i * dc] == '.') { end = i; break; }
    if ((edge == 'R' || edge == 'B') && board[(r + end * dr) * n + c + end * dc] != '.') {
        place(r, c, who);
        return;
    }
    for (int i = end; i > 0; i--)
        place(r + i * dr, c + i * dc, board[(r + (i - 1) * dr) * n + c + (i - 1) * dc]);
    place(r, c, who);
}

static char word[64];

static int next(void) { return scanf("%63s", word) == 1; }

/* Plays the game of size `size` whose moves follow; returns its verdict. */
static const char *game(int size) {
    n = size;
    board = realloc(board, (size_t)n * n);
    memset(board, '.', (size_t)n * n);
    for (int k = 0; k < 2; k++) {
        free(rows[k]), free(cols[k]);
        rows[k] = calloc(n, sizeof(int)), cols[k] = calloc(n, sizeof(int));
        full[k] = 0;
    }
    const char *verdict = "TIE GAME";
    int moves = 0, over = 0;
    while (next() && strcmp(word, "QUIT") != 0) {
        if (over) continue;
        push(word[0], atoi(word + 1) - 1, moves++ % 2 ? 'O' : 'X');
        if (full[0] != full[1]) {
            verdict = full[0] > full[1] ? "X WINS" : "O WINS";
            over = 1;
        }
    }
    return verdict;
}

int main(void) {
    /* The multi-case form has an empty second line. */
    int first, c;
    if (scanf("%d", &first) != 1) return 1;
    while ((c = getchar()) == ' ' || c == '\r') {}
    int multi = c == '\n' && ((c = getchar()) == '\n' || c == '\r');
    if (c != EOF) ungetc(c, stdin);
    if (!multi) { puts(game(first)); return 0; }
    for (int t = 0; t < first; t++) {
        int size;
        if (scanf("%d", &size) != 1) return 1;
        if (t > 0) putchar('\n');
        puts(game(size));
    }
    return 0;
}
