/* A judge of Pousse (UVa 844, the waterloo rules): single-game and multi-case input. Each row and
 * column keeps its count of each colour, so a move costs the length of the pushed segment.
 * Built with -DPLANT_MOVER_ONLY it has a planted bug: only the mover's straights count, so a
 * push that completes a straight of the opponent never ends the game.
 * Built with -DRULES_ICFP98 (or -DRULES_ICFP98_BOARD) it judges the original contest's rules as
 * well: a move that repeats an earlier configuration, the board and the side to move (or the
 * board alone), loses for its mover; configurations are kept in a hash table. */
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

#if defined(RULES_ICFP98) || defined(RULES_ICFP98_BOARD)
/* The board after every move so far (n * n bytes each) and a hash table of 1 + move index. */
static char *history;
static size_t moves_kept, history_cap, *table, table_cap;

static unsigned long long board_hash(void) {
    unsigned long long h = 1469598103934665603ULL;
    for (int i = 0; i < n * n; i++) h = (h ^ (unsigned char)board[i]) * 1099511628211ULL;
    return h;
}

/* The slot of table for a configuration of hash h equal to the current board after a move of
 * parity `side`: its index into history, or the empty slot where it belongs. */
static size_t find(unsigned long long h, size_t side) {
    size_t i = h & (table_cap - 1);
    for (; table[i]; i = (i + 1) & (table_cap - 1)) {
        size_t k = table[i] - 1;
#ifdef RULES_ICFP98
        if (k % 2 != side) continue;
#endif
        if (memcmp(history + k * n * n, board, (size_t)n * n) == 0) break;
    }
    (void)side;
    return i;
}

static void insert_all(void) {
    free(table);
    table = calloc(table_cap, sizeof *table);
    size_t keep = moves_kept;
    char *saved = malloc((size_t)n * n);
    memcpy(saved, board, (size_t)n * n);
    for (size_t k = 0; k < keep; k++) {
        memcpy(board, history + k * n * n, (size_t)n * n);
        table[find(board_hash(), k % 2)] = k + 1;
    }
    memcpy(board, saved, (size_t)n * n);
    free(saved);
}

/* Whether the board after this move repeats an earlier configuration; records it when not. */
static int repeats(void) {
    size_t side = moves_kept % 2;
    if (2 * (moves_kept + 1) > table_cap) {
        table_cap = table_cap ? 2 * table_cap : 1024;
        insert_all();
    }
    size_t slot = find(board_hash(), side);
    if (table[slot]) return 1;
    if (moves_kept == history_cap) {
        history_cap = history_cap ? 2 * history_cap : 64;
        history = realloc(history, history_cap * n * n);
    }
    memcpy(history + moves_kept * n * n, board, (size_t)n * n);
    table[slot] = ++moves_kept;
    return 0;
}
#endif

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
#if defined(RULES_ICFP98) || defined(RULES_ICFP98_BOARD)
    /* History is kept in boards of this game's size. */
    free(history);
    history = NULL;
    moves_kept = history_cap = 0;
    table_cap = 1024;
    free(table);
    table = calloc(table_cap, sizeof *table);
#endif
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
#if defined(RULES_ICFP98) || defined(RULES_ICFP98_BOARD)
        else if (repeats()) {
            verdict = mover == 'X' ? "O WINS" : "X WINS";
            decided = 1;
        }
#endif
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
