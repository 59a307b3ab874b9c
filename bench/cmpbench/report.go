package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Sample keys (see bench/compare.sh): SYSTEM/DATA/QUERY, where
//
//	SYSTEM  tetsql-raw, tetsql-zstd, tetsql-zstd-ra (read_ahead), sqlite (native table),
//	        duckdb, tetsql-agg-raw, tetsql-agg-zstd (<ds>_agg), tetpy-raw, tetpy-zstd
//	DATA    grid (2-D), cube (4-D); big (the 1e9-element grid, tetsql only); t1 (4096x4096)
//	QUERY   point, row, col, box, slab, full, filtered, open (process start to first result)

var (
	cellSystems = []string{"tetsql-raw", "tetsql-zstd", "tetsql-zstd-ra", "sqlite", "duckdb"}
	redSystems  = []string{"tetsql-raw", "tetsql-agg-raw", "tetsql-agg-zstd", "tetpy-raw", "tetpy-zstd", "sqlite", "duckdb"}
	datas       = []string{"grid", "cube"}
	queries     = []string{"point", "row", "col", "box", "slab", "full", "filtered"}
)

type rep struct {
	wall, cpu map[string][]float64
	res       map[string][]string // key → values in column order
	loads     [][]string
	mems      [][]string
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (r *rep) med(k string) (float64, bool) {
	xs, ok := r.wall[k]
	if !ok || len(xs) == 0 {
		return 0, false
	}
	return median(xs) * 1000, true
}

func fmtMS(ms float64) string {
	switch {
	case ms < 1:
		return fmt.Sprintf("%.3f", ms)
	case ms < 100:
		return fmt.Sprintf("%.1f", ms)
	default:
		return fmt.Sprintf("%.0f", ms)
	}
}

func (r *rep) cell(k string) string {
	if ms, ok := r.med(k); ok {
		return fmtMS(ms)
	}
	return "–"
}

func (r *rep) ratio(a, b string) string {
	x, ok1 := r.med(a)
	y, ok2 := r.med(b)
	if !ok1 || !ok2 || y == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", x/y)
}

// agree compares the results of the keys that have one: every value
// parsed as a float must be equal exactly (all sums of these files are
// exact in float64: multiples of 1/1024, far below 2^53/1024).
func (r *rep) agree(keys []string) string { return r.agreeN(keys, false) }

// agreeN with last: compare only the last value of each result (the sum;
// tet-py and the aggregate table's full scope return no count).
func (r *rep) agreeN(keys []string, last bool) string {
	var ref []string
	var refKey string
	n := 0
	for _, k := range keys {
		v, ok := r.res[k]
		if !ok {
			continue
		}
		if last && len(v) > 0 {
			v = v[len(v)-1:]
		}
		n++
		if ref == nil {
			ref, refKey = v, k
			continue
		}
		if len(v) != len(ref) {
			return fmt.Sprintf("**no** (%s vs %s)", k, refKey)
		}
		for i := range v {
			if v[i] == ref[i] {
				continue
			}
			a, err1 := strconv.ParseFloat(v[i], 64)
			b, err2 := strconv.ParseFloat(ref[i], 64)
			if err1 != nil || err2 != nil || a != b {
				return fmt.Sprintf("**no** (%s %s vs %s %s)", k, v[i], refKey, ref[i])
			}
		}
	}
	if n < 2 {
		return "–"
	}
	return fmt.Sprintf("yes (%d)", n)
}

func cmdReport(args []string) error {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	o := fs.String("o", "", "write markdown here too")
	fs.Parse(args)
	if fs.NArg() != 1 {
		usage()
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	r := &rep{wall: map[string][]float64{}, cpu: map[string][]float64{}, res: map[string][]string{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fl := strings.Split(sc.Text(), "\t")
		if len(fl) < 2 {
			continue
		}
		switch fl[0] {
		case "sample":
			w, _ := strconv.ParseFloat(fl[2], 64)
			c, _ := strconv.ParseFloat(fl[3], 64)
			r.wall[fl[1]] = append(r.wall[fl[1]], w)
			r.cpu[fl[1]] = append(r.cpu[fl[1]], c)
		case "result":
			var vs []string
			for _, kv := range fl[2:] {
				_, v, _ := strings.Cut(kv, "=")
				vs = append(vs, v)
			}
			r.res[fl[1]] = vs
		case "load":
			r.loads = append(r.loads, fl[1:])
		case "mem":
			r.mems = append(r.mems, fl[1:])
		}
	}
	var w io.Writer = os.Stdout
	if *o != "" {
		of, err := os.Create(*o)
		if err != nil {
			return err
		}
		defer of.Close()
		w = io.MultiWriter(os.Stdout, of)
	}
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }

	p("#### Cells queries: tetsql vs native SQLite vs DuckDB (median wall ms)\n\n")
	p("| data | query | tetsql raw | tetsql zstd | tetsql zstd RA | SQLite native | DuckDB | raw/SQLite | raw/DuckDB | zstd/raw | zstd RA/raw | n | results equal |\n")
	p("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, d := range datas {
		for _, q := range queries {
			var keys []string
			var cells []string
			any := false
			for _, s := range cellSystems {
				k := s + "/" + d + "/" + q
				keys = append(keys, k)
				cells = append(cells, r.cell(k))
				if _, ok := r.wall[k]; ok {
					any = true
				}
			}
			if !any {
				continue
			}
			k := func(s string) string { return s + "/" + d + "/" + q }
			p("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", d, q, strings.Join(cells, " | "),
				r.ratio(k("tetsql-raw"), k("sqlite")), r.ratio(k("tetsql-raw"), k("duckdb")),
				r.ratio(k("tetsql-zstd"), k("tetsql-raw")), r.ratio(k("tetsql-zstd-ra"), k("tetsql-raw")),
				fmt.Sprint(len(r.wall[k("tetsql-raw")])), r.agree(keys))
		}
	}

	p("\n#### Reductions: sum over the whole array and over the slab (median wall ms)\n\n")
	p("| data | scope | tetsql cells raw | tetsql agg raw | tetsql agg zstd | tet-py raw | tet-py zstd | SQLite native | DuckDB | agg raw/tet-py raw | agg zstd/tet-py zstd | results equal |\n")
	p("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, d := range datas {
		for _, q := range []string{"full", "slab"} {
			var keys, cells []string
			for _, s := range redSystems {
				k := s + "/" + d + "/" + q
				keys = append(keys, k)
				cells = append(cells, r.cell(k))
			}
			if _, ok := r.wall["tetsql-agg-raw/"+d+"/"+q]; !ok {
				continue
			}
			p("| %s | %s | %s | %s | %s | %s |\n", d, q, strings.Join(cells, " | "),
				r.ratio("tetsql-agg-raw/"+d+"/"+q, "tetpy-raw/"+d+"/"+q),
				r.ratio("tetsql-agg-zstd/"+d+"/"+q, "tetpy-zstd/"+d+"/"+q), r.agreeN(keys, true))
		}
	}

	// Target 1 and the 1e9-element file, and process start (hyperfine).
	var other []string
	for k := range r.wall {
		if strings.HasPrefix(k, "t1/") || strings.HasPrefix(k, "big") || strings.HasPrefix(k, "start/") {
			other = append(other, k)
		}
	}
	slices.Sort(other)
	if len(other) > 0 {
		p("\n#### Other timings (median wall ms, CPU ms)\n\n| key | n | wall ms | CPU ms | result |\n|---|---|---|---|---|\n")
		for _, k := range other {
			res := strings.Join(r.res[k], ", ")
			cpu := "–"
			if c := median(r.cpu[k]); c > 0 {
				cpu = fmtMS(c * 1000)
			}
			p("| %s | %d | %s | %s | %s |\n", k, len(r.wall[k]), r.cell(k), cpu, res)
		}
		if _, ok := r.wall["t1/tetsql"]; ok {
			p("\nTarget 1 (4096×4096, same process): tetsql/SQLite-pk %s, tetsql/SQLite-valueonly %s\n",
				r.ratio("t1/tetsql", "t1/sqlite-pk"), r.ratio("t1/tetsql", "t1/sqlite-valueonly"))
			p("Target 1 results equal: %s\n", r.agree([]string{"t1/tetsql", "t1/sqlite-pk", "t1/sqlite-valueonly"}))
		}
	}

	if len(r.loads) > 0 {
		p("\n#### Loads (one run each)\n\n| what | wall s | CPU s | rows | size on disk |\n|---|---|---|---|---|\n")
		for _, l := range r.loads {
			if len(l) < 5 {
				continue
			}
			sz, _ := strconv.ParseFloat(l[4], 64)
			p("| %s | %s | %s | %s | %.2f GiB |\n", l[0], l[1], l[2], l[3], sz/(1<<30))
		}
	}
	if len(r.mems) > 0 {
		p("\n#### Memory of one full scan per process (MiB; /proc/self/status sampled every 2 ms)\n\n")
		p("| scan | wall s | VmHWM | peak RssAnon | peak RssFile | RssAnon before | RssFile before |\n|---|---|---|---|---|---|---|\n")
		for _, m := range r.mems {
			kv := map[string]float64{}
			for _, f := range m[2:] {
				k, v, _ := strings.Cut(f, "=")
				x, _ := strconv.ParseFloat(v, 64)
				kv[k] = x / 1024
			}
			p("| %s | %s | %.0f | %.0f | %.0f | %.0f | %.0f |\n", m[0], m[1], kv["VmHWM"], kv["peak_RssAnon"], kv["peak_RssFile"], kv["before_RssAnon"], kv["before_RssFile"])
		}
	}
	return nil
}
