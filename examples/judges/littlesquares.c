/* A judge of LittleSquares (TopCoder SRM 389), rows form: grids of '.' and '#', one row per line,
 * separated by empty lines; one verdict per grid. Bands of two rows are independent games; in a
 * band, a run of L fully empty columns is worth g(L) and a lone empty square 1; the grid's value
 * is the XOR (Sprague-Grundy).
 * Planted bugs, chosen when building:
 *   -DPLANT_XOR_BITS        XORs each part's win/lose bit instead of its Grundy value;
 *   -DPLANT_CRASH_ODD_ROWS  reads past the grid (a crash) when it has an odd number of rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXW 4096
static int g[MAXW + 1];

static void grundy(void) {
    for (int l = 0; l <= MAXW; l++) {
        static char seen[512];
        memset(seen, 0, sizeof seen);
        for (int a = 0; a + 2 <= l; a++) seen[g[a] ^ g[l - 2 - a]] = 1;
        for (int a = 0; a < l; a++) seen[g[a] ^ g[l - 1 - a] ^ 1] = 1;
        int m = 0;
        while (seen[m]) m++;
        g[l] = m;
    }
}

static int part(int v) {
#ifdef PLANT_XOR_BITS
    return v != 0;
#else
    return v;
#endif
}

static char *rows[MAXW];
static int nrows;

static void verdict(void) {
    if (nrows == 0) return;
    int width = (int)strlen(rows[0]), value = 0;
    int bands = nrows / 2;
#ifdef PLANT_CRASH_ODD_ROWS
    if (nrows % 2) bands = nrows; /* walks off the end of the grid */
#endif
    for (int b = 0; b < bands; b++) {
        char *top = rows[2 * b], *bottom = rows[2 * b + 1];
        int run = 0;
        for (int c = 0; c <= width; c++) {
            int both = c < width && top[c] == '.' && bottom[c] == '.';
            if (both) { run++; continue; }
            value ^= part(g[run]);
            run = 0;
            if (c < width && (top[c] == '.') != (bottom[c] == '.')) value ^= 1;
        }
    }
    if (nrows % 2)
        for (int c = 0; c < width; c++) value ^= rows[nrows - 1][c] == '.';
    puts(value ? "first" : "second");
    for (int i = 0; i < nrows; i++) free(rows[i]);
    nrows = 0;
}

int main(void) {
    grundy();
    static char line[MAXW + 2];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] == 0) { verdict(); continue; }
        /* Not strdup: judges compile with -std=c99 or c11, where it is not declared. */
        size_t length = strlen(line) + 1;
        rows[nrows] = malloc(length);
        memcpy(rows[nrows++], line, length);
    }
    verdict();
    return 0;
}
