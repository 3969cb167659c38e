// A judge of LittleSquares (TopCoder SRM 389) in Java, rows form, as littlesquares.c: grids of
// '.' and '#', one row per line, separated by empty lines; one verdict per grid. Bands of two
// rows are independent games; in a band, a run of L fully empty columns is worth g(L) and a lone
// empty square 1; the grid's value is the XOR (Sprague-Grundy). A correct judge.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

public class LittleSquares {
    static final int MAXW = 4096;
    static final int[] g = new int[MAXW + 1];

    static void grundy() {
        boolean[] seen = new boolean[512];
        for (int l = 0; l <= MAXW; l++) {
            java.util.Arrays.fill(seen, false);
            for (int a = 0; a + 2 <= l; a++) seen[g[a] ^ g[l - 2 - a]] = true;
            for (int a = 0; a < l; a++) seen[g[a] ^ g[l - 1 - a] ^ 1] = true;
            int m = 0;
            while (seen[m]) m++;
            g[l] = m;
        }
    }

    static void verdict(List<String> rows, StringBuilder out) {
        if (rows.isEmpty()) return;
        int width = rows.get(0).length(), value = 0;
        for (int b = 0; b < rows.size() / 2; b++) {
            String top = rows.get(2 * b), bottom = rows.get(2 * b + 1);
            int run = 0;
            for (int c = 0; c <= width; c++) {
                boolean both = c < width && top.charAt(c) == '.' && bottom.charAt(c) == '.';
                if (both) {
                    run++;
                    continue;
                }
                value ^= g[run];
                run = 0;
                if (c < width && (top.charAt(c) == '.') != (bottom.charAt(c) == '.')) value ^= 1;
            }
        }
        if (rows.size() % 2 == 1) {
            String last = rows.get(rows.size() - 1);
            for (int c = 0; c < width; c++) if (last.charAt(c) == '.') value ^= 1;
        }
        out.append(value != 0 ? "first" : "second").append('\n');
        rows.clear();
    }

    public static void main(String[] args) throws Exception {
        grundy();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        List<String> rows = new ArrayList<>();
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            line = line.strip();
            if (line.isEmpty()) verdict(rows, out);
            else rows.add(line);
        }
        verdict(rows, out);
        System.out.print(out);
    }
}
