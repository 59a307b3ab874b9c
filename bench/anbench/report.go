package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A benchQuery is one line of bench/analytics_queries.tsv:
// KEY, FRESH (y/n), TETSQL_SQL, DUCKDB_SQL, NOTE.
type benchQuery struct {
	key, tet, duck, note string
	fresh                bool
}

func readQueries(path string) ([]benchQuery, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var qs []benchQuery
	for _, l := range strings.Split(string(b), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) < 4 {
			return nil, fmt.Errorf("%s: %q: want KEY, FRESH, TETSQL, DUCKDB[, NOTE] separated by tabs", path, l)
		}
		q := benchQuery{key: f[0], fresh: f[1] == "y", tet: f[2], duck: f[3]}
		if len(f) > 4 {
			q.note = f[4]
		}
		qs = append(qs, q)
	}
	return qs, nil
}

// samples is every timing of one tool and mode: key → seconds.
type samples map[string][]float64

// cmdReport reads the samples the script gathered (lines "TOOL MODE
// sample KEY WALL CPU BYTES" or "TOOL MODE error KEY MESSAGE", MODE warm
// or fresh), compares the saved rows, and writes the markdown.
func cmdReport(args []string) error {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	out := fs.String("o", "", "write the markdown here (default stdout)")
	queries := fs.String("queries", "", "the query file (with {P99} substituted)")
	machine := fs.String("machine", "", "a file describing the machine, quoted in the report")
	title := fs.String("title", "Array analytics: tetsql vs DuckDB", "heading")
	fs.Parse(args)
	if fs.NArg() != 3 || *queries == "" {
		return fmt.Errorf("report: want -queries FILE SAMPLES.tsv TETSQL_DIR DUCKDB_DIR")
	}
	qs, err := readQueries(*queries)
	if err != nil {
		return err
	}
	times := map[string]samples{} // "tool/mode" → samples
	errs := map[string]string{}   // "tool/key" → message
	b, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Split(l, "\t")
		if len(f) < 5 {
			continue
		}
		switch f[2] {
		case "sample":
			v, err := strconv.ParseFloat(f[4], 64)
			if err != nil {
				return fmt.Errorf("report: %q: %w", l, err)
			}
			k := f[0] + "/" + f[1]
			if times[k] == nil {
				times[k] = samples{}
			}
			times[k][f[3]] = append(times[k][f[3]], v)
		case "error":
			if _, seen := errs[f[0]+"/"+f[3]]; !seen {
				errs[f[0]+"/"+f[3]] = f[4]
			}
		}
	}
	w := os.Stdout
	if *out != "" {
		fh, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer fh.Close()
		w = fh
	}
	fmt.Fprintf(w, "# %s\n\n", *title)
	if *machine != "" {
		if m, err := os.ReadFile(*machine); err == nil {
			fmt.Fprintf(w, "```\n%s```\n\n", m)
		}
	}
	fmt.Fprintln(w, "Medians of wall time in ms (n = samples). warm: one process per tool and round, after one unmeasured run; fresh: a new process per query (start, open, query, exit), timed from outside. ratio = tetsql / DuckDB (< 1: tetsql faster).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| query | tetsql warm | DuckDB warm | ratio warm | tetsql fresh | DuckDB fresh | ratio fresh | same answer |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, q := range qs {
		tw, tn := median(times["tetsql/warm"][q.key])
		dw, dn := median(times["duckdb/warm"][q.key])
		tf, tfn := median(times["tetsql/fresh"][q.key])
		df, dfn := median(times["duckdb/fresh"][q.key])
		check := compareRows(filepath.Join(fs.Arg(1), q.key+".tsv"), filepath.Join(fs.Arg(2), q.key+".tsv"))
		if m, ok := errs["tetsql/"+q.key]; ok {
			check = "tetsql unsupported (error: " + clip(m) + ")"
		}
		if m, ok := errs["duckdb/"+q.key]; ok {
			check += "; DuckDB error: " + clip(m)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", q.key,
			ms(tw, tn), ms(dw, dn), ratio(tw, dw), ms(tf, tfn), ms(df, dfn), ratio(tf, df), check)
	}
	fmt.Fprintln(w, "\n## Queries\n\n| query | tetsql | DuckDB | note |\n|---|---|---|---|")
	for _, q := range qs {
		fmt.Fprintf(w, "| %s | `%s` | `%s` | %s |\n", q.key, q.tet, q.duck, q.note)
	}
	return nil
}

func clip(s string) string {
	s = strings.ReplaceAll(s, "|", "/")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

func median(v []float64) (float64, int) {
	if len(v) == 0 {
		return math.NaN(), 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2], n
	}
	return (s[n/2-1] + s[n/2]) / 2, n
}

func ms(sec float64, n int) string {
	if n == 0 {
		return "–"
	}
	m := sec * 1e3
	switch {
	case m >= 100:
		return fmt.Sprintf("%.0f (n=%d)", m, n)
	case m >= 10:
		return fmt.Sprintf("%.1f (n=%d)", m, n)
	}
	return fmt.Sprintf("%.2f (n=%d)", m, n)
}

func ratio(a, b float64) string {
	if math.IsNaN(a) || math.IsNaN(b) || b == 0 {
		return "–"
	}
	r := a / b
	if r < 1 {
		return fmt.Sprintf("%.2f", r)
	}
	return fmt.Sprintf("**%.2f**", r)
}

// compareRows compares two result files as sets of rows (each sorted:
// GROUP BY output has no order; the leading columns are dims, exact, so
// sorting pairs the rows). Numbers agree within 1e-6 relative (sums and
// means are rounded differently by the two engines), text exactly.
func compareRows(a, b string) string {
	ra, err := readRows(a)
	if err != nil {
		return "no tetsql rows"
	}
	rb, err := readRows(b)
	if err != nil {
		return "no DuckDB rows"
	}
	if len(ra) != len(rb) {
		return fmt.Sprintf("**differ**: %d rows vs %d", len(ra), len(rb))
	}
	worst := 0.0
	for i := range ra {
		fa, fb := strings.Split(ra[i], "\t"), strings.Split(rb[i], "\t")
		if len(fa) != len(fb) {
			return fmt.Sprintf("**differ**: row %d has %d vs %d columns", i, len(fa), len(fb))
		}
		for j := range fa {
			if fa[j] == fb[j] {
				continue
			}
			x, e1 := strconv.ParseFloat(fa[j], 64)
			y, e2 := strconv.ParseFloat(fb[j], 64)
			if e1 != nil || e2 != nil {
				return fmt.Sprintf("**differ**: row %d: %q vs %q", i, ra[i], rb[i])
			}
			rel := math.Abs(x-y) / math.Max(math.Abs(x), math.Abs(y))
			if rel > 1e-6 {
				return fmt.Sprintf("**differ**: row %d: %q vs %q", i, ra[i], rb[i])
			}
			worst = max(worst, rel)
		}
	}
	if worst == 0 {
		return fmt.Sprintf("yes (%d rows, identical)", len(ra))
	}
	return fmt.Sprintf("yes (%d rows, rel %.0e)", len(ra), worst)
}

func readRows(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		rows = append(rows, sc.Text())
	}
	if err := sc.Err(); err != nil && err != io.EOF {
		return nil, err
	}
	slices.Sort(rows)
	return rows, nil
}
