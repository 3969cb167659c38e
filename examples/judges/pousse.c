/* A judge of Pousse (UVa 844, the waterloo rules): single-game and multi-case input, read whole
 * into memory. Each row and column keeps its count of each colour, and each colour its count of
 * straights, so a move costs the length of the pushed segment.
 * Built with -DPLANT_MOVER_ONLY it has a planted bug: only the mover's straights count, so a
 * push that completes a straight of the opponent never ends the game.
 * Built with -DPLANT_R_WRONG_END, a push from the right looks for the empty square to fill from
 * the wrong end of the row: it shifts the markers up to the empty square farthest from the
 * right edge, where the rules stop at the nearest.
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
/* Lines full of each colour. */
static int full[2];

#define AT(r, c) board[(r) * n + (c)]

static int colour(char v) { return v == 'X' ? 0 : 1; }

/* Adds `by` to the count of colour k in line `line`, keeping the straight counts. */
static void count(int k, int line, int by) {
    full[k] -= cnt[k][line] == n;
    cnt[k][line] += by;
    full[k] += cnt[k][line] == n;
}

/* Sets square (r, c) to v, keeping the counts. */
static void set(int r, int c, char v) {
    char old = AT(r, c);
    if (old == v) return;
    if (old != '.') { count(colour(old), r, -1); count(colour(old), n + c, -1); }
    if (v != '.') { count(colour(v), r, 1); count(colour(v), n + c, 1); }
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
#ifdef PLANT_R_WRONG_END
    if (edge == 'R')
        for (int i = n - 1; i >= 0; i--)
            if (AT(r + i * dr, c + i * dc) == '.') { last = i; break; }
#endif
    for (int i = last; i > 0; i--)
        set(r + i * dr, c + i * dc, AT(r + (i - 1) * dr, c + (i - 1) * dc));
    set(r, c, mover);
}

static void straights(int *x, int *o) {
    *x = full[0];
    *o = full[1];
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

static char *input, *at, *end;
static char line[64];

/* The next line of the input, without its line end, into `line` (cut at 63 bytes). */
static int next_line(void) {
    if (at >= end) return 0;
    char *stop = memchr(at, '\n', (size_t)(end - at));
    if (!stop) stop = end;
    size_t len = (size_t)(stop - at);
    if (len > 0 && at[len - 1] == '\r') len--;
    if (len > sizeof line - 1) len = sizeof line - 1;
    memcpy(line, at, len);
    line[len] = 0;
    at = stop + 1;
    return 1;
}

/* Reads all of standard input. */
static void read_input(void) {
    size_t cap = 1 << 16, len = 0, got;
    input = malloc(cap);
    while ((got = fread(input + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) input = realloc(input, cap *= 2);
    }
    at = input;
    end = input + len;
}

/* Plays one game of size `size`; the first move line may already be in `line`. */
static const char *game(int size, int have_line) {
    n = size;
    board = realloc(board, (size_t)n * n);
    memset(board, '.', (size_t)n * n);
    for (int k = 0; k < 2; k++) {
        cnt[k] = calloc(2 * (size_t)n, sizeof **cnt);
        full[k] = 0;
    }
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
    read_input();
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
