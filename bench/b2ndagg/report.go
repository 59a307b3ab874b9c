package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// samples is what report reads back from run's output.
type samples struct {
	wall, cpu map[string][]float64 // "MODE NAME QUERY" → seconds
	names     []string             // files in order of appearance
	queries   []string             // query keys in order of appearance
	sql       map[string]string    // query key → SQL
	size      map[string]int64     // file → bytes
	checks    map[string]string    // "QUERY NAME" → verdicts, "; "-joined
}

func load(r io.Reader) (*samples, error) {
	s := &samples{wall: map[string][]float64{}, cpu: map[string][]float64{}, sql: map[string]string{},
		size: map[string]int64{}, checks: map[string]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		bad := fmt.Errorf("bad line %q", sc.Text())
		switch f[0] {
		case "sample":
			if len(f) != 6 {
				return nil, bad
			}
			w, err1 := strconv.ParseFloat(f[4], 64)
			c, err2 := strconv.ParseFloat(f[5], 64)
			if err1 != nil || err2 != nil {
				return nil, bad
			}
			k := f[1] + " " + f[2] + " " + f[3]
			s.wall[k], s.cpu[k] = append(s.wall[k], w), append(s.cpu[k], c)
		case "size":
			if len(f) != 3 {
				return nil, bad
			}
			s.size[f[1]], _ = strconv.ParseInt(f[2], 10, 64)
			if !slices.Contains(s.names, f[1]) {
				s.names = append(s.names, f[1])
			}
		case "query":
			if len(f) != 3 {
				return nil, bad
			}
			if !slices.Contains(s.queries, f[1]) {
				s.queries = append(s.queries, f[1])
			}
			s.sql[f[1]] = f[2]
		case "check":
			if len(f) != 4 {
				return nil, bad
			}
			k := f[1] + " " + f[2]
			if s.checks[k] != "" {
				s.checks[k] += "; "
			}
			s.checks[k] += f[3]
		}
	}
	return s, sc.Err()
}

// med is the median of the samples of key, and their number.
func med(m map[string][]float64, key string) (float64, int) {
	v := slices.Clone(m[key])
	if len(v) == 0 {
		return 0, 0
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2], len(v)
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2, len(v)
}

func cmdReport(args []string) error {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	outPath := fs.String("o", "", "write the markdown here (default stdout)")
	pairs := fs.String("pairs", "b2nd-zstd/tet-zstd", "comma-separated A/B: one table of ratios A/B per pair")
	fs.Parse(args)
	if fs.NArg() != 1 {
		return fmt.Errorf("report: want SAMPLES.tsv")
	}
	fh, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer fh.Close()
	s, err := load(fh)
	if err != nil {
		return err
	}
	var w io.Writer = os.Stdout
	if *outPath != "" {
		of, err := os.Create(*outPath)
		if err != nil {
			return err
		}
		defer of.Close()
		w = of
	}
	for _, p := range strings.Split(*pairs, ",") {
		a, b, ok := strings.Cut(p, "/")
		if !ok {
			return fmt.Errorf("report: pair %q: want A/B", p)
		}
		writePair(w, s, a, b)
	}
	writeAll(w, s)
	return nil
}

func ms(x float64) string {
	switch {
	case x == 0:
		return "–"
	case x < 0.01:
		return fmt.Sprintf("%.2f", x*1e3)
	case x < 1:
		return fmt.Sprintf("%.1f", x*1e3)
	}
	return fmt.Sprintf("%.0f", x*1e3)
}

func ratio(a, b float64) string {
	if a == 0 || b == 0 {
		return "–"
	}
	r := a / b
	if r > 1.5 {
		return fmt.Sprintf("**%.2f**", r)
	}
	return fmt.Sprintf("%.2f", r)
}

// writePair writes the table of file a against file b: medians of wall
// time, their ratio a/b, and the ratio of the CPU-time medians.
func writePair(w io.Writer, s *samples, a, b string) {
	_, nw := med(s.wall, "warm "+a+" "+s.queries[0])
	_, nf := med(s.wall, "fresh "+a+" "+s.queries[0])
	fmt.Fprintf(w, "#### %s against %s\n\n", a, b)
	fmt.Fprintf(w, "Medians in ms (warm n = %d, fresh n = %d); ratio = %s / %s, of wall time and of CPU time (user+system: less sensitive to other load than wall time).\n\n", nw, nf, a, b)
	fmt.Fprintf(w, "| query | %s warm | %s warm | ratio | CPU ratio | %s fresh | %s fresh | ratio | CPU ratio | answers |\n", b, a, b, a)
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|---|\n")
	for _, q := range s.queries {
		fmt.Fprintf(w, "| %s |", q)
		for _, mode := range []string{"warm", "fresh"} {
			wb, _ := med(s.wall, mode+" "+b+" "+q)
			wa, _ := med(s.wall, mode+" "+a+" "+q)
			cb, _ := med(s.cpu, mode+" "+b+" "+q)
			ca, _ := med(s.cpu, mode+" "+a+" "+q)
			fmt.Fprintf(w, " %s | %s | %s | %s |", ms(wb), ms(wa), ratio(wa, wb), ratio(ca, cb))
		}
		fmt.Fprintf(w, " %s |\n", answer(s, q, a, b))
	}
	fmt.Fprintln(w)
}

// answer says whether a's and b's answers to q agreed: each was compared
// with the first file's (or is the first file's), and each fresh answer
// with its file's warm one.
func answer(s *samples, q, a, b string) string {
	va, vb := s.checks[q+" "+a], s.checks[q+" "+b]
	bad := func(v string) bool { return v == "" || strings.Contains(v, "DIFFER") }
	switch {
	case bad(va) || bad(vb):
		return "**" + va + " / " + vb + "**"
	case strings.HasPrefix(va, "equal within") || strings.HasPrefix(vb, "equal within"):
		return "equal within 1e-9"
	}
	return "equal"
}

// writeAll lists every file's medians, the file sizes and the SQL.
func writeAll(w io.Writer, s *samples) {
	fmt.Fprintf(w, "#### All files (median wall ms, warm / fresh)\n\n| query |")
	for _, n := range s.names {
		fmt.Fprintf(w, " %s |", n)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(s.names)))
	for _, q := range s.queries {
		fmt.Fprintf(w, "| %s |", q)
		for _, n := range s.names {
			a, _ := med(s.wall, "warm "+n+" "+q)
			b, _ := med(s.wall, "fresh "+n+" "+q)
			fmt.Fprintf(w, " %s / %s |", ms(a), ms(b))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "| file size (MB) |")
	for _, n := range s.names {
		fmt.Fprintf(w, " %.1f |", float64(s.size[n])/1e6)
	}
	fmt.Fprintf(w, "\n\nAnswers: every file's answer to every query was compared with %s's (warm), and every fresh answer with its file's warm one:", s.names[0])
	bad := 0
	for _, q := range s.queries {
		for _, n := range s.names {
			v := s.checks[q+" "+n]
			if v == "" || strings.Contains(v, "DIFFER") {
				fmt.Fprintf(w, "\n- %s on %s: %s", q, n, map[bool]string{true: "no check recorded", false: v}[v == ""])
				bad++
			}
		}
	}
	if bad == 0 {
		fmt.Fprintf(w, " all equal.")
	}
	fmt.Fprintf(w, "\n\nQueries (t is the file's table):\n\n| key | SQL |\n|---|---|\n")
	for _, q := range s.queries {
		fmt.Fprintf(w, "| %s | `%s` |\n", q, s.sql[q])
	}
	fmt.Fprintln(w)
}
