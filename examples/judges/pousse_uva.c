/* A judge of Pousse written the way UVa 844 solutions are: it reads only the problem's own
 * multi-case form (the number of games, then each game: N, its moves, QUIT) with scanf, and
 * sizes its arrays for the problem's limit N <= 100. Given a single game without the case
 * count, it reads N as the count and fails (exit 1), as such solutions do.
 *
 * Each row and column keeps its count of each colour, so a move costs the length of the
 * pushed segment and a straight count costs 2N comparisons.
 *
 * Planted bugs, each switched on when building:
 *   -DPLANT_MOVE_BUFFER         the moves of a game are read into a buffer of 32,767 moves
 *                               first, as a public UVa 844 solution does; a longer game
 *                               writes past it and crashes. Only long games reach it.
 *   -DPLANT_FULL_LINE_FROM_END  a push from the right or the bottom into a full line replaces
 *                               the marker at the entry square instead of pushing the line:
 *                               one misjudged push. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 100

static int n;
static char board[MAXN * MAXN]; /* '.', 'X' or 'O', row by row */
/* Markers of X (0) and O (1) in each row (0..n-1) and column (n..2n-1). */
static int count[2][2 * MAXN];

#define SQUARE(r, c) board[(r) * n + (c)]

static void put(int r, int c, char v) {
    char old = SQUARE(r, c);
    if (old != '.') {
        int k = old == 'O';
        count[k][r]--;
        count[k][n + c]--;
    }
    if (v != '.') {
        int k = v == 'O';
        count[k][r]++;
        count[k][n + c]++;
    }
    SQUARE(r, c) = v;
}

/* Pushes a marker of `who` into line k (0-based) from `edge`. */
static void push(char edge, int k, char who) {
    int r = 0, c = 0, dr = 0, dc = 0;
    switch (edge) {
    case 'L': r = k; dc = 1; break;
    case 'R': r = k; c = n - 1; dc = -1; break;
    case 'T': c = k; dr = 1; break;
    default: r = n - 1; c = k; dr = -1; break;
    }
    /* The carry stops at the first empty square, or at the last one, which falls off. */
    int end = n - 1;
    for (int i = 0; i < n; i++) {
        if (SQUARE(r + i * dr, c + i * dc) == '.') {
            end = i;
            break;
        }
    }
#ifdef PLANT_FULL_LINE_FROM_END
    if ((edge == 'R' || edge == 'B') && SQUARE(r + end * dr, c + end * dc) != '.') {
        put(r, c, who);
        return;
    }
#endif
    for (int i = end; i > 0; i--)
        put(r + i * dr, c + i * dc, SQUARE(r + (i - 1) * dr, c + (i - 1) * dc));
    put(r, c, who);
}

/* 'X' or 'O' when that colour has more straights, else 0. */
static int decided(void) {
    int x = 0, o = 0;
    for (int line = 0; line < 2 * n; line++) {
        x += count[0][line] == n;
        o += count[1][line] == n;
    }
    return x > o ? 'X' : o > x ? 'O' : 0;
}

#ifdef PLANT_MOVE_BUFFER
static int play(void) {
    char moves[32767][16];
    int m = 0;
    while (scanf("%15s", moves[m]) == 1 && strcmp(moves[m], "QUIT") != 0) m++;
    int result = 0;
    for (int i = 0; i < m && !result; i++) {
        push(moves[i][0], atoi(moves[i] + 1) - 1, i % 2 ? 'O' : 'X');
        result = decided();
    }
    return result;
}
#else
static int play(void) {
    char move[16];
    int result = 0;
    for (int i = 0; scanf("%15s", move) == 1 && strcmp(move, "QUIT") != 0; i++) {
        if (!result) {
            push(move[0], atoi(move + 1) - 1, i % 2 ? 'O' : 'X');
            result = decided();
        }
    }
    return result;
}
#endif

int main(void) {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int g = 0; g < games; g++) {
        if (scanf("%d", &n) != 1 || n < 1 || n > MAXN) return 1;
        memset(board, '.', sizeof board);
        memset(count, 0, sizeof count);
        int result = play();
        if (g > 0) printf("\n");
        puts(result == 'X' ? "X WINS" : result == 'O' ? "O WINS" : "TIE GAME");
    }
    return 0;
}
