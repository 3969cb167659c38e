/* A judge of Some Game (DMOJ ioiqrp5) written the way contest solutions are: it reads the
 * problem's own form (data sets 'P R C K' and R rows of C values, until the end of input) with
 * scanf, keeps the board in static arrays sized for the package's limit of 10,000 squares,
 * and prints one verdict per data set, an empty line between two.
 *
 * Along each of the eight steps the board splits into cycles (the torus wraps both ways). A
 * player has a line when a run of its squares along a cycle is K long, or fills the whole
 * cycle. The board is legal when the counts follow the turn order and either nobody has a
 * line, or only the last mover has, and one of its squares lies on every such run and breaks
 * them all when taken away (that square was the winning move). */
#include <stdio.h>
#include <string.h>

#define MAXSQ 10000
#define MAXRUNS (8 * MAXSQ)

static int players, rows, cols;
static long long k;
static int cell[MAXSQ];
static int seen[MAXSQ];
static int cycle[MAXSQ];
static int count[MAXSQ + 1];
static int on_runs[MAXSQ];
/* The runs with a line: owner, squares (in runsq from start, len of them), whole cycle. */
static int run_owner[MAXRUNS], run_start[MAXRUNS], run_len[MAXRUNS], run_whole[MAXRUNS];
static int runsq[8 * MAXSQ];
static int nruns, nsquares;

static const int DR[8] = {0, 1, 1, 1, 1, 2, 1, 2};
static const int DC[8] = {1, 0, 1, -1, 2, 1, -2, -1};

static void add_run(int owner, const int *squares, int len, int whole) {
    run_owner[nruns] = owner;
    run_start[nruns] = nsquares;
    run_len[nruns] = len;
    run_whole[nruns] = whole;
    for (int i = 0; i < len; i++) {
        runsq[nsquares++] = squares[i];
        on_runs[squares[i]]++;
    }
    nruns++;
}

/* Every run with a line along the cycles of step (dr, dc). */
static void runs_along(int dr, int dc) {
    int n = rows * cols;
    memset(seen, 0, sizeof(int) * n);
    for (int s = 0; s < n; s++) {
        if (seen[s]) continue;
        int len = 0, r = s / cols, c = s % cols;
        while (!seen[r * cols + c]) {
            seen[r * cols + c] = 1;
            cycle[len++] = r * cols + c;
            r = (r + dr) % rows;
            c = ((c + dc) % cols + cols) % cols;
        }
        int cut = -1;
        for (int i = 0; i < len && cut < 0; i++)
            if (cell[cycle[i]] != cell[cycle[(i + len - 1) % len]]) cut = i;
        if (cut < 0) {
            if (cell[cycle[0]]) add_run(cell[cycle[0]], cycle, len, 1);
            continue;
        }
        /* Start where the value changes, so that no run wraps. */
        static int turned[MAXSQ];
        for (int i = 0; i < len; i++) turned[i] = cycle[(cut + i) % len];
        for (int i = 0; i < len;) {
            int j = i;
            while (j < len && cell[turned[j]] == cell[turned[i]]) j++;
            if (cell[turned[i]] && j - i >= k) add_run(cell[turned[i]], turned + i, j - i, 0);
            i = j;
        }
    }
}

/* Whether taking `square` away breaks every run. */
static int breaks_all(int square) {
    for (int r = 0; r < nruns; r++) {
        int at = -1;
        for (int i = 0; i < run_len[r] && at < 0; i++)
            if (runsq[run_start[r] + i] == square) at = i;
        if (run_whole[r]) {
            if (run_len[r] - 1 >= k) return 0;
        } else if (at >= k || run_len[r] - 1 - at >= k) {
            return 0;
        }
    }
    return 1;
}

static const char *verdict(void) {
    int n = rows * cols, filled = 0;
    for (int s = 0; s < n; s++) {
        if (cell[s] < 0 || cell[s] > players) return "ERROR";
        filled += cell[s] != 0;
    }
    if (k == 0) return filled ? "ERROR" : "PLAYER 1";
    memset(count, 0, sizeof count);
    for (int s = 0; s < n; s++) {
        if (cell[s] > MAXSQ) return "ERROR";
        count[cell[s]]++;
    }
    int m = filled / players, j = filled % players;
    for (int p = 1; p <= players && p <= MAXSQ; p++)
        if (count[p] != m + (p <= j)) return "ERROR";
    int last = j ? j : players;
    nruns = nsquares = 0;
    memset(on_runs, 0, sizeof(int) * n);
    for (int d = 0; d < 8; d++) runs_along(DR[d], DC[d]);
    if (nruns == 0) return "NO WINNERS";
    for (int r = 0; r < nruns; r++)
        if (run_owner[r] != last) return "ERROR";
    for (int s = 0; s < n; s++)
        if (on_runs[s] == nruns && breaks_all(s)) {
            static char text[32];
            sprintf(text, "PLAYER %d", last);
            return text;
        }
    return "ERROR";
}

int main(void) {
    int sets = 0;
    while (scanf("%d %d %d %lld", &players, &rows, &cols, &k) == 4) {
        if (rows < 1 || cols < 1 || rows * cols > MAXSQ) return 1;
        for (int s = 0; s < rows * cols; s++)
            if (scanf("%d", &cell[s]) != 1) return 1;
        if (sets++ > 0) printf("\n");
        puts(verdict());
    }
    return 0;
}
