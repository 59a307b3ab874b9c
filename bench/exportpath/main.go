// Command exportpath runs tetsql's Parquet export of a query in process,
// through tetsql.NewExport and Export.WriteParquet as the shell's
// `-o x.parquet` does.
//
//	exportpath FILE.tet SQL
//
// writes the Parquet to a discarded writer and prints the rows written
// and whether the compiled plan qualified for the fast path (Export.Fast;
// the writer may still fall back if the table's cursor cannot deliver,
// which the public API does not report). bench/export.sh uses it to
// check that the query it times as "fast" qualifies and the one it times
// as "ordinary" does not.
//
//	exportpath -n N -o OUT.parquet [-tag T] [-round R] [-cpuprofile F] FILE.tet SQL
//
// exports once unmeasured, then N times, each into OUT.parquet, on one
// connection (so the file is opened once and its decoded-chunk cache is
// warm), and prints one sample line per export: tag, round, wall seconds,
// the process's peak RSS (KiB), CPU seconds (user + system) and bytes.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/tetsql/tetsql"
)

func main() {
	n := flag.Int("n", 0, "timed exports (0: report the path only)")
	out := flag.String("o", "", "Parquet file written by each timed export")
	tag := flag.String("tag", "tet-warm", "first field of each sample line")
	round := flag.Int("round", 1, "second field of each sample line")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	flag.Parse()
	if flag.NArg() != 2 || (*n > 0 && *out == "") {
		fmt.Fprintln(os.Stderr, "usage: exportpath [-n N -o OUT.parquet [-tag T] [-round R]] FILE.tet SQL")
		os.Exit(2)
	}
	if *prof != "" {
		f, err := os.Create(*prof)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "exportpath: cpuprofile:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(flag.Arg(0), flag.Arg(1), *n, *out, *tag, *round); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "exportpath:", err)
		os.Exit(1)
	}
}

func run(file, query string, n int, out, tag string, round int) error {
	ctx := context.Background()
	db, err := sql.Open("tetsql", file)
	if err != nil {
		return fmt.Errorf("open %s: %w", file, err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close()
	if n == 0 {
		e, err := tetsql.NewExport(ctx, conn, query)
		if err != nil {
			return fmt.Errorf("prepare: %w", err)
		}
		rows, err := e.WriteParquet(ctx, io.Discard, tetsql.ParquetOptions{})
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		fmt.Printf("rows=%d fast=%v\n", rows, e.Fast())
		return nil
	}
	for i := 0; i <= n; i++ { // i == 0: unmeasured
		w0, c0 := time.Now(), cpu()
		size, err := export(ctx, conn, query, out)
		if err != nil {
			return err
		}
		wall, used := time.Since(w0), cpu()-c0
		if i > 0 {
			fmt.Printf("%s\t%d\t%.6f\t%d\t%.6f\t%d\n", tag, round, wall.Seconds(), peakRSS(), used.Seconds(), size)
		}
	}
	return nil
}

// export writes one export of query into path and returns its size.
func export(ctx context.Context, conn *sql.Conn, query, path string) (int64, error) {
	e, err := tetsql.NewExport(ctx, conn, query)
	if err != nil {
		return 0, fmt.Errorf("prepare: %w", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	if _, err := e.WriteParquet(ctx, f, tetsql.ParquetOptions{}); err != nil {
		f.Close()
		return 0, fmt.Errorf("export: %w", err)
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// cpu is the process's user plus system time so far.
func cpu() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS is the process's peak resident set size in KiB (Linux units).
func peakRSS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return int64(ru.Maxrss)
}
