/* A judge of LittleSquares written the way TopCoder SRM 389 solutions are: it trusts the
 * problem's constraints (an even number of rows, 2 to 10, of the same even length, 2 to 10).
 * It reads one grid, the rows up to the end of input (the single-case form only), into
 * fixed arrays sized for those limits; each band of two rows is a game whose Grundy value is
 * found by a search over the bitmasks of its squares, and the grid's value is their XOR.
 * Correct inside the constraints; outside them it pairs an odd last row with a row that is
 * not there, and overflows its arrays on grids that are too large. */
#include <stdio.h>
#include <string.h>

static char grid[10][12];
static int rows, width;
/* Grundy value + 1 of each band state (bit r * width + c set: square filled); 0 unknown. */
static signed char memo[1 << 20];

static int grundy(int mask) {
    if (memo[mask]) return memo[mask] - 1;
    char seen[64] = {0};
    for (int c = 0; c < width; c++) {
        for (int r = 0; r < 2; r++) {
            int bit = 1 << (r * width + c);
            if (!(mask & bit)) seen[grundy(mask | bit)] = 1;
        }
        int block = (3 << c) | (3 << (width + c));
        if (c + 1 < width && !(mask & block)) seen[grundy(mask | block)] = 1;
    }
    int g = 0;
    while (seen[g]) g++;
    memo[mask] = (signed char)(g + 1);
    return g;
}

int main(void) {
    while (scanf("%11s", grid[rows]) == 1) rows++;
    width = (int)strlen(grid[0]);
    int value = 0;
    for (int b = 0; b < rows; b += 2) {
        int mask = 0;
        for (int c = 0; c < width; c++) {
            if (grid[b][c] == '#') mask |= 1 << c;
            if (grid[b + 1][c] == '#') mask |= 1 << (width + c);
        }
        value ^= grundy(mask);
    }
    puts(value ? "first" : "second");
    return 0;
}
