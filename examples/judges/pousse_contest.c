/* A judge of Pousse written the way a contestant writes one for UVa 844: it reads the problem's
 * multi-case form only (the number of games, then each game: N, its moves, QUIT), keeps the
 * board in a two-dimensional array sized for the problem's limit N <= 100, clears it with loops
 * at the start of each game, and keeps one global state for every game: the counts of each
 * colour in each row and column, and the straights of each colour, updated square by square.
 * A contestant's bugs live in those loops and sizes, and show only at N = 100 or in the game
 * after a larger one; `scripts/eval/mutation.py` (which mutates this judge among its defaults)
 * measures whether `referee audit` finds them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX 100

int n;
char g[MAX][MAX];
int rowx[MAX], rowo[MAX], colx[MAX], colo[MAX];
int xs, os;

void clear(void) {
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            g[i][j] = '.';
    for (i = 0; i < n; i++) {
        rowx[i] = 0;
        rowo[i] = 0;
        colx[i] = 0;
        colo[i] = 0;
    }
    xs = 0;
    os = 0;
}

/* Takes the marker off square (r, c), keeping the counts. */
void take(int r, int c) {
    if (g[r][c] == 'X') {
        if (rowx[r] == n) xs--;
        if (colx[c] == n) xs--;
        rowx[r]--;
        colx[c]--;
    } else if (g[r][c] == 'O') {
        if (rowo[r] == n) os--;
        if (colo[c] == n) os--;
        rowo[r]--;
        colo[c]--;
    }
    g[r][c] = '.';
}

/* Puts marker v on the empty square (r, c), keeping the counts. */
void put(int r, int c, char v) {
    g[r][c] = v;
    if (v == 'X') {
        rowx[r]++;
        colx[c]++;
        if (rowx[r] == n) xs++;
        if (colx[c] == n) xs++;
    } else {
        rowo[r]++;
        colo[c]++;
        if (rowo[r] == n) os++;
        if (colo[c] == n) os++;
    }
}

/* Moves the marker of (r1, c1) to (r2, c2). */
void move(int r1, int c1, int r2, int c2) {
    char v = g[r1][c1];
    take(r1, c1);
    take(r2, c2);
    if (v != '.') put(r2, c2, v);
}

/* Pushes a marker of `who` into line k (0-based) from edge e. */
void push(char e, int k, char who) {
    int i, stop;
    if (e == 'L') {
        stop = n - 1;
        for (i = 0; i < n; i++)
            if (g[k][i] == '.') { stop = i; break; }
        for (i = stop; i > 0; i--) move(k, i - 1, k, i);
        take(k, 0);
        put(k, 0, who);
    } else if (e == 'R') {
        stop = 0;
        for (i = n - 1; i >= 0; i--)
            if (g[k][i] == '.') { stop = i; break; }
        for (i = stop; i < n - 1; i++) move(k, i + 1, k, i);
        take(k, n - 1);
        put(k, n - 1, who);
    } else if (e == 'T') {
        stop = n - 1;
        for (i = 0; i < n; i++)
            if (g[i][k] == '.') { stop = i; break; }
        for (i = stop; i > 0; i--) move(i - 1, k, i, k);
        take(0, k);
        put(0, k, who);
    } else {
        stop = 0;
        for (i = n - 1; i >= 0; i--)
            if (g[i][k] == '.') { stop = i; break; }
        for (i = stop; i < n - 1; i++) move(i + 1, k, i, k);
        take(n - 1, k);
        put(n - 1, k, who);
    }
}

int main(void) {
    int t, game, turn;
    char word[16];
    if (scanf("%d", &t) != 1) return 1;
    for (game = 0; game < t; game++) {
        if (scanf("%d", &n) != 1) return 1;
        clear();
        int winner = 0;
        for (turn = 0; scanf("%15s", word) == 1 && strcmp(word, "QUIT") != 0; turn++) {
            if (winner) continue;
            push(word[0], atoi(word + 1) - 1, turn % 2 == 0 ? 'X' : 'O');
            if (xs > os) winner = 'X';
            else if (os > xs) winner = 'O';
        }
        if (game > 0) printf("\n");
        if (winner == 'X') printf("X WINS\n");
        else if (winner == 'O') printf("O WINS\n");
        else printf("TIE GAME\n");
    }
    return 0;
}
