// Command aggbench times tetsql aggregate queries and the baselines they
// are compared with, inside one process each (no process start in the
// timings), and turns the samples into the table of bench/README.md.
//
//	aggbench sql    [-n N] [-warm W] FILE KEY[@BYTES]=SQL ...  time queries (database/sql, driver "tetsql")
//	aggbench decode [-n N] [-j J] FILE KEY              decode every chunk once (tetcore.ReadChunk)
//	aggbench read   [-n N] FILE KEY                     read the file into memory (warm page cache)
//	aggbench report [-o FILE] SAMPLES.tsv               medians, ratios, result checks → markdown
//
// sql, decode and read write tab-separated lines to stdout:
//
//	sample  KEY  WALL_SECONDS  CPU_SECONDS  BYTES
//	result  KEY  COLUMN=VALUE ...
//
// CPU_SECONDS is the process's user+system time over the repetition
// (getrusage), so CPU_SECONDS/WALL_SECONDS is the number of busy cores.
// BYTES is the payload the operation covers (decoded bytes of the selected
// elements' chunks for sql; 0 when not meaningful).
package main

import (
	"bufio"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/tetcore"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "sql":
		err = cmdSQL(os.Args[2:])
	case "decode":
		err = cmdDecode(os.Args[2:])
	case "read":
		err = cmdRead(os.Args[2:])
	case "report":
		err = cmdReport(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "aggbench:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage:
  aggbench sql    [-n N] [-warm W] FILE KEY[@BYTES]=SQL ...
  aggbench decode [-n N] [-j J] FILE KEY
  aggbench read   [-n N] FILE KEY
  aggbench report [-o FILE] SAMPLES.tsv`)
	os.Exit(2)
}

// cpuTime is the process's user+system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// timeit runs fn once and returns its wall and CPU time.
func timeit(fn func() error) (wall, cpu time.Duration, err error) {
	c0, t0 := cpuTime(), time.Now()
	err = fn()
	return time.Since(t0), cpuTime() - c0, err
}

func emitSample(w io.Writer, key string, wall, cpu time.Duration, bytes int64) {
	fmt.Fprintf(w, "sample\t%s\t%.9f\t%.9f\t%d\n", key, wall.Seconds(), cpu.Seconds(), bytes)
}

// cmdSQL opens FILE once and runs each KEY=SQL query W times unmeasured,
// then N times measured. Queries are interleaved (round-robin over the
// queries, N rounds) so that machine noise hits them alike.
func cmdSQL(args []string) error {
	fs := flag.NewFlagSet("sql", flag.ExitOnError)
	n := fs.Int("n", 5, "measured repetitions per query")
	warm := fs.Int("warm", 1, "unmeasured repetitions per query first")
	bytesFlag := fs.Int64("bytes", 0, "bytes each query covers (reported with the samples)")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the measured repetitions to this file")
	fs.Parse(args)
	if fs.NArg() < 2 {
		return fmt.Errorf("sql: want FILE KEY=SQL ...")
	}
	db, err := sql.Open("tetsql", fs.Arg(0))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	conn, err := db.Conn(ctx) // one connection: the file is attached once
	if err != nil {
		return err
	}
	defer conn.Close()
	type query struct {
		key, sql string
		bytes    int64
	}
	var qs []query
	for _, a := range fs.Args()[1:] {
		k, q, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("sql: %q: want KEY[@BYTES]=SQL", a)
		}
		nb := *bytesFlag
		if k2, b, ok := strings.Cut(k, "@"); ok {
			if nb, err = strconv.ParseInt(b, 10, 64); err != nil {
				return fmt.Errorf("sql: %q: bad BYTES", a)
			}
			k = k2
		}
		qs = append(qs, query{k, q, nb})
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	run := func(q query) (string, error) {
		rows, err := conn.QueryContext(ctx, q.sql)
		if err != nil {
			return "", fmt.Errorf("%s: %w", q.key, err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		var sb strings.Builder
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				return "", err
			}
			for i, c := range cols {
				fmt.Fprintf(&sb, "\t%s=%v", c, vals[i])
			}
		}
		return sb.String(), rows.Err()
	}
	for _, q := range qs {
		var res string
		for i := 0; i < max(*warm, 1); i++ {
			if res, err = run(q); err != nil {
				return err
			}
		}
		fmt.Fprintf(out, "result\t%s%s\n", q.key, res)
	}
	if *profile != "" {
		pf, err := os.Create(*profile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(pf); err != nil {
			return err
		}
		defer func() { pprof.StopCPUProfile(); pf.Close() }()
	}
	for i := 0; i < *n; i++ {
		for _, q := range qs {
			wall, cpu, err := timeit(func() error { _, err := run(q); return err })
			if err != nil {
				return err
			}
			emitSample(out, q.key, wall, cpu, q.bytes)
		}
	}
	return nil
}

// cmdDecode decodes every chunk of every dataset of FILE once per
// repetition, with J goroutines (each with its own buffer), and touches
// nothing else: the floor for any reduction over a compressed file.
func cmdDecode(args []string) error {
	fs := flag.NewFlagSet("decode", flag.ExitOnError)
	n := fs.Int("n", 5, "measured repetitions")
	j := fs.Int("j", runtime.GOMAXPROCS(0), "goroutines")
	fs.Parse(args)
	if fs.NArg() != 2 {
		return fmt.Errorf("decode: want FILE KEY")
	}
	f, err := tetcore.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	type item struct {
		ds *tetcore.Dataset
		c  *tetcore.Chunk
	}
	var items []item
	var raw int64
	for _, ds := range f.Datasets {
		cs := ds.Chunks()
		for i := range cs {
			items = append(items, item{ds, &cs[i]})
			raw += cs[i].RawLen
		}
	}
	bufs := make([][]byte, *j)
	pass := func() error {
		var wg sync.WaitGroup
		errs := make([]error, *j)
		for w := 0; w < *j; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := w; i < len(items); i += *j {
					out, err := f.ReadChunk(items[i].ds, items[i].c, bufs[w])
					if err != nil {
						errs[w] = err
						return
					}
					if items[i].c.Codec == tetcore.CodecZstd {
						bufs[w] = out
					}
				}
			}(w)
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	}
	if err := pass(); err != nil { // warm-up: page cache, decoder state, buffers
		return err
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for i := 0; i < *n; i++ {
		wall, cpu, err := timeit(pass)
		if err != nil {
			return err
		}
		emitSample(out, fs.Arg(1), wall, cpu, raw)
	}
	return nil
}

// cmdRead reads FILE into memory with 1 MiB reads (the in-process
// equivalent of cat FILE > /dev/null, without the pipe).
func cmdRead(args []string) error {
	fs := flag.NewFlagSet("read", flag.ExitOnError)
	n := fs.Int("n", 5, "measured repetitions")
	fs.Parse(args)
	if fs.NArg() != 2 {
		return fmt.Errorf("read: want FILE KEY")
	}
	buf := make([]byte, 1<<20)
	var size int64
	pass := func() error {
		fh, err := os.Open(fs.Arg(0))
		if err != nil {
			return err
		}
		defer fh.Close()
		size = 0
		for {
			k, err := fh.Read(buf)
			size += int64(k)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	}
	if err := pass(); err != nil {
		return err
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for i := 0; i < *n; i++ {
		wall, cpu, err := timeit(pass)
		if err != nil {
			return err
		}
		emitSample(out, fs.Arg(1), wall, cpu, size)
	}
	return nil
}
