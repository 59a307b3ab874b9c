package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// Sample keys (see bench/agg.sh):
//
//	tetsql/FILE/SCOPE/OP   SELECT OP FROM X_agg [WHERE slab]   (OP all = the five at once)
//	tetpy/FILE/SCOPE/OP    tet-py 0.8.3 reduction (all = the five calls of one repetition)
//	numpy/FILE/SCOPE/all   tet-py read_numpy + five numpy reductions (f64 accumulators)
//	cells/FILE/SCOPE/sum   SELECT sum(value) FROM X [WHERE slab]
//	cat/FILE, read/FILE    cat FILE > /dev/null (with process start), Go read loop
//	decode/FILE/jN         decode every chunk once with N goroutines
//
// FILE is raw, zstd, cube, cuberun or unaligned; SCOPE is whole or slab.

var (
	ops    = []string{"sum", "mean", "min", "max", "var"}
	files  = []string{"raw", "zstd", "cube", "cuberun", "unaligned"}
	scopes = []string{"whole", "slab"}
)

type series struct {
	wall, cpu []float64
	bytes     int64
}

type data struct {
	s   map[string]*series
	res map[string]map[string]string // key → column → value
}

func (d *data) med(key string) (float64, bool) {
	s, ok := d.s[key]
	if !ok || len(s.wall) == 0 {
		return 0, false
	}
	return median(s.wall), true
}

func (d *data) medCPU(key string) (float64, bool) {
	s, ok := d.s[key]
	if !ok || len(s.cpu) == 0 {
		return 0, false
	}
	return median(s.cpu), true
}

func (d *data) n(key string) int {
	if s, ok := d.s[key]; ok {
		return len(s.wall)
	}
	return 0
}

func median(xs []float64) float64 {
	v := slices.Clone(xs)
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func load(r io.Reader) (*data, error) {
	d := &data{s: map[string]*series{}, res: map[string]map[string]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		switch f[0] {
		case "sample":
			if len(f) < 4 {
				return nil, fmt.Errorf("bad line %q", sc.Text())
			}
			s := d.s[f[1]]
			if s == nil {
				s = &series{}
				d.s[f[1]] = s
			}
			w, err1 := strconv.ParseFloat(f[2], 64)
			c, err2 := strconv.ParseFloat(f[3], 64)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("bad line %q", sc.Text())
			}
			s.wall, s.cpu = append(s.wall, w), append(s.cpu, c)
			if len(f) > 4 {
				s.bytes, _ = strconv.ParseInt(f[4], 10, 64)
			}
		case "result":
			m := d.res[f[1]]
			if m == nil {
				m = map[string]string{}
				d.res[f[1]] = m
			}
			for _, kv := range f[2:] {
				if k, v, ok := strings.Cut(kv, "="); ok {
					m[k] = v
				}
			}
		}
	}
	return d, sc.Err()
}

func cmdReport(args []string) error {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	outPath := fs.String("o", "", "write the markdown here (default stdout)")
	procs := fs.Int("procs", runtime.GOMAXPROCS(0), "cores the Go side used (for per-core figures)")
	fs.Parse(args)
	if fs.NArg() != 1 {
		return fmt.Errorf("report: want SAMPLES.tsv")
	}
	fh, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer fh.Close()
	d, err := load(fh)
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
	writeReport(w, d, *procs)
	return nil
}

func ms(x float64) string { return fmt.Sprintf("%.1f", x*1e3) }

func ratio(a, b float64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

func yes(ok bool) string {
	if ok {
		return "**yes**"
	}
	return "**no**"
}

// agree checks tetsql's result against another's: floats within 1e-6
// relative for sum/mean/var, min/max exactly.
func agree(op, a, b string) (bool, string) {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil {
		return false, fmt.Sprintf("unparsable %q vs %q", a, b)
	}
	if op == "min" || op == "max" {
		return x == y, fmt.Sprintf("%v vs %v", x, y)
	}
	den := math.Max(math.Abs(x), math.Abs(y))
	rel := 0.0
	if den > 0 {
		rel = math.Abs(x-y) / den
	}
	return rel <= 1e-6, fmt.Sprintf("rel %.1e", rel)
}

func writeReport(w io.Writer, d *data, procs int) {
	fmt.Fprintf(w, "Medians of wall time (ms); `n` is the number of repetitions. Ratios are of medians from the same run.\n\n")

	// Headline targets.
	fmt.Fprintf(w, "### Targets\n\n| comparison | measured | target | holds |\n|---|---|---|---|\n")
	if agg, ok := d.med("tetsql/raw/whole/all"); ok {
		for _, scope := range scopes {
			a, ok1 := d.med("tetsql/raw/" + scope + "/all")
			c, ok2 := d.med("cells/raw/" + scope + "/sum")
			if ok1 && ok2 {
				fmt.Fprintf(w, "| agg vs cells, raw %s: `sum(value) FROM grid` %s ms (n=%d) / `… FROM grid_agg` %s ms (n=%d) | %.0f× faster | ≥ 50× | %s |\n",
					scope, ms(c), d.n("cells/raw/"+scope+"/sum"), ms(a), d.n("tetsql/raw/"+scope+"/all"), c/a, yes(c/a >= 50))
			}
		}
		bytes := float64(d.s["tetsql/raw/whole/all"].bytes)
		cpu, _ := d.medCPU("tetsql/raw/whole/all")
		if bytes > 0 {
			fmt.Fprintf(w, "| agg throughput, raw whole (%.1f MB): total (wall) | %.2f GB/s | – | – |\n", bytes/1e6, bytes/agg/1e9)
			fmt.Fprintf(w, "| agg throughput per core: bytes / process CPU time (%.0f%% of %d cores busy) | %.2f GB/s | – | – |\n", 100*cpu/agg/float64(procs), procs, bytes/cpu/1e9)
		}
		if c, ok := d.med("cat/raw"); ok {
			fmt.Fprintf(w, "| agg vs `cat grid.tet > /dev/null` (warm, incl. process start): %s ms / %s ms | %s | ≤ 4× | %s |\n", ms(agg), ms(c), ratio(agg, c), yes(agg/c <= 4))
		}
		if r, ok := d.med("read/raw"); ok {
			fmt.Fprintf(w, "| agg vs Go read loop of the file (1 MiB reads, in-process): %s ms / %s ms | %s | (≤ 4×) | %s |\n", ms(agg), ms(r), ratio(agg, r), yes(agg/r <= 4))
		}
	}
	for _, scope := range scopes {
		az, ok1 := d.med("tetsql/zstd/" + scope + "/all")
		dec, ok2 := d.med(fmt.Sprintf("decode/zstd/j%d", procs))
		dec1, ok3 := d.med("decode/zstd/j1")
		if ok1 && ok2 && scope == "whole" {
			fmt.Fprintf(w, "| agg on zstd vs decode-only (all chunks, %d goroutines like agg): %s ms / %s ms | %s | ≤ 1.3× | %s |\n", procs, ms(az), ms(dec), ratio(az, dec), yes(az/dec <= 1.3))
			if ok3 {
				fmt.Fprintf(w, "| (decode-only, 1 goroutine: %s ms; agg zstd CPU time %s ms) | | | |\n", ms(dec1), msCPU(d, "tetsql/zstd/whole/all"))
			}
		}
	}
	if u, ok := d.med("tetsql/unaligned/whole/all"); ok {
		if a, ok := d.med("tetsql/raw/whole/all"); ok {
			fmt.Fprintf(w, "| (not a target) agg on f32 payloads at odd offsets vs aligned, whole: %s ms / %s ms | %s | – | – |\n", ms(u), ms(a), ratio(u, a))
		}
	}
	for _, f := range files {
		if e := d.res["tetpy/"+f+"/error"]; e != nil {
			fmt.Fprintf(w, "| tet-py on %s | failed: %s | – | – |\n", f, e["message"])
		}
	}
	worst, holds, total := 0.0, 0, 0
	for _, f := range files {
		for _, scope := range scopes {
			for _, op := range append(slices.Clone(ops), "all") {
				a, ok1 := d.med("tetsql/" + f + "/" + scope + "/" + op)
				b, ok2 := d.med("tetpy/" + f + "/" + scope + "/" + op)
				if ok1 && ok2 {
					total++
					if a/b <= 1.2 {
						holds++
					}
					worst = math.Max(worst, a/b)
				}
			}
		}
	}
	if total > 0 {
		fmt.Fprintf(w, "| tetsql agg vs tet-py, every op × whole/slab × file (table below) | worst %.3f× (tetsql/tet-py) | ≤ 1.2× | %s (%d of %d) |\n", worst, yes(holds == total), holds, total)
	}

	// Per-op table.
	fmt.Fprintf(w, "\n### tetsql agg vs tet-py 0.8.3, per operation\n\n")
	fmt.Fprintf(w, "tetsql: `SELECT <op> FROM <ds>_agg [WHERE …]` (`all` = `SELECT sum, mean, min, max, var`). tet-py: `TetFile.<op>(ds)` whole, `query_execute(build_query(ds, selection=…, <op>=[]))` slab (`all` = the five calls). numpy: `read_numpy` + numpy reductions in f64, as one line per file/scope.\n\n")
	fmt.Fprintf(w, "| file | scope | op | tetsql ms | tet-py ms | tetsql/tet-py | tet-py faster? | results agree |\n|---|---|---|---|---|---|---|---|\n")
	for _, f := range files {
		for _, scope := range scopes {
			for _, op := range append(slices.Clone(ops), "all") {
				ka, kb := "tetsql/"+f+"/"+scope+"/"+op, "tetpy/"+f+"/"+scope+"/"+op
				a, ok1 := d.med(ka)
				b, ok2 := d.med(kb)
				if !ok1 {
					continue
				}
				agreeS := agreement(d, f, scope, op)
				if !ok2 {
					fmt.Fprintf(w, "| %s | %s | %s | %s | – | – | – | %s |\n", f, scope, op, ms(a), agreeS)
					continue
				}
				fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", f, scope, op, ms(a), ms(b), ratio(a, b), map[bool]string{true: "yes", false: "no"}[b < a], agreeS)
			}
			if n, ok := d.med("numpy/" + f + "/" + scope + "/all"); ok {
				r, _ := d.med("numpy/" + f + "/" + scope + "/read")
				a, _ := d.med("tetsql/" + f + "/" + scope + "/all")
				fmt.Fprintf(w, "| %s | %s | read_numpy+numpy (all five) | %s | %s (read %s) | %s | | %s |\n", f, scope, ms(a), ms(n), ms(r), ratio(a, n), agreement2(d, "numpy/"+f+"/"+scope+"/all", f, scope))
			}
		}
	}

	// Other timings.
	fmt.Fprintf(w, "\n### Other timings\n\n| key | n | median ms | CPU ms (median) |\n|---|---|---|---|\n")
	var keys []string
	for k := range d.s {
		if strings.HasPrefix(k, "cells/") || strings.HasPrefix(k, "cat/") || strings.HasPrefix(k, "read/") || strings.HasPrefix(k, "decode/") {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		m, _ := d.med(k)
		fmt.Fprintf(w, "| %s | %d | %s | %s |\n", k, d.n(k), ms(m), msCPU(d, k))
	}
	// Cells result vs agg result.
	for _, scope := range scopes {
		c := d.res["cells/raw/"+scope+"/sum"]
		a := d.res["tetsql/raw/"+scope+"/all"]
		if c != nil && a != nil {
			ok, how := agree("sum", c["sum(value)"], a["sum"])
			fmt.Fprintf(w, "\ncells vs agg sum, raw %s: %s (%s)\n", scope, map[bool]string{true: "agree", false: "DISAGREE"}[ok], how)
		}
	}
}

func msCPU(d *data, k string) string {
	if strings.HasPrefix(k, "cat/") {
		return "–"
	}
	c, ok := d.medCPU(k)
	if !ok {
		return "–"
	}
	return ms(c)
}

// agreement compares tetsql's value of op (or of all five for "all")
// with tet-py's.
func agreement(d *data, f, scope, op string) string {
	return agreement2(d, "tetpy/"+f+"/"+scope+"/all", f, scope, op)
}

func agreement2(d *data, otherKey, f, scope string, only ...string) string {
	a := d.res["tetsql/"+f+"/"+scope+"/all"]
	b := d.res[otherKey]
	if a == nil || b == nil {
		return "–"
	}
	list := ops
	if len(only) == 1 && only[0] != "all" {
		list = only
	}
	var bad []string
	for _, op := range list {
		ok, how := agree(op, a[op], b[op])
		if !ok {
			bad = append(bad, op+": "+a[op]+" vs "+b[op]+" ("+how+")")
		}
	}
	if len(bad) == 0 {
		if len(list) == 1 {
			_, how := agree(list[0], a[list[0]], b[list[0]])
			return "yes (" + how + ")"
		}
		return "yes"
	}
	return "**NO** " + strings.Join(bad, "; ")
}
