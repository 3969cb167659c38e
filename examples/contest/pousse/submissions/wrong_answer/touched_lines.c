/* Pousse (UVa 844 rules): one game, or T games after a count and an empty line.
 * After each push only the pushed line and the line across it at the entry square are
 * checked for straights (a wrong answer: a push moves markers into every line it crosses). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n;
static char *board, *straight; /* straight[line]: 'X', 'O' or '.'; rows, then columns */

#define AT(r, c) board[(r) * n + (c)]

static char line_owner(int line) {
    char first = line < n ? AT(line, 0) : AT(0, line - n);
    if (first == '.') return '.';
    for (int i = 1; i < n; i++)
        if ((line < n ? AT(line, i) : AT(i, line - n)) != first) return '.';
    return first;
}

static void push(char edge, int k, char who) {
    int r = 0, c = 0, dr = 0, dc = 0;
    if (edge == 'L') r = k, dc = 1;
    else if (edge == 'R') r = k, c = n - 1, dc = -1;
    else if (edge == 'T') c = k, dr = 1;
    else r = n - 1, c = k, dr = -1;
    int end = n - 1;
    for (int i = 0; i < n; i++)
        if (AT(r + i * dr, c + i * dc) == '.') { end = i; break; }
    for (int i = end; i > 0; i--)
        AT(r + i * dr, c + i * dc) = AT(r + (i - 1) * dr, c + (i - 1) * dc);
    AT(r, c) = who;
    straight[r] = line_owner(r);
    straight[n + c] = line_owner(n + c);
}

static char word[64];

static const char *game(int size) {
    n = size;
    board = realloc(board, (size_t)n * n);
    straight = realloc(straight, 2 * (size_t)n);
    memset(board, '.', (size_t)n * n);
    memset(straight, '.', 2 * (size_t)n);
    const char *verdict = "TIE GAME";
    int moves = 0, over = 0;
    while (scanf("%63s", word) == 1 && strcmp(word, "QUIT") != 0) {
        if (over) continue;
        push(word[0], atoi(word + 1) - 1, moves++ % 2 ? 'O' : 'X');
        int x = 0, o = 0;
        for (int i = 0; i < 2 * n; i++) x += straight[i] == 'X', o += straight[i] == 'O';
        if (x != o) {
            verdict = x > o ? "X WINS" : "O WINS";
            over = 1;
        }
    }
    return verdict;
}

int main(void) {
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
