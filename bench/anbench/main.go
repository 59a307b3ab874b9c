// Command anbench is the tetsql side of bench/analytics.sh: it writes the
// ERA5-like cube, times tetsql queries through database/sql, and turns
// the samples of tetsql and DuckDB (bench/duckdb, duckbench) into the
// results markdown.
//
//	anbench gen    -o FILE [-shape T,Y,X] [-chunk T,Y,X] [-codec zstd] [-nan P] [-seed S]
//	anbench sql    [-n N] [-warm W] [-out DIR] [-timeout D] [-cpuprofile F] FILE KEY=SQL ...
//	anbench report [-o FILE] [-machine FILE] [-title T] SAMPLES.tsv TETSQL_DIR DUCKDB_DIR
//
// sql writes the lines bench/aggbench and duckbench write:
//
//	sample  KEY  WALL_SECONDS  CPU_SECONDS  BYTES
//	error   KEY  MESSAGE
//
// A query that fails (a feature not built yet) is reported as an error
// line and left out of the later repetitions; the other queries go on.
// With -out, the rows of each query's first run go to DIR/KEY.tsv, for
// report to compare with DuckDB's.
package main

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = cmdGen(os.Args[2:])
	case "sql":
		err = cmdSQL(os.Args[2:])
	case "report":
		err = cmdReport(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "anbench:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage:
  anbench gen    -o FILE [-shape T,Y,X] [-chunk T,Y,X] [-codec zstd|raw] [-nan P] [-seed S]
  anbench sql    [-n N] [-warm W] [-out DIR] [-timeout D] FILE KEY=SQL ...
  anbench report [-o FILE] [-machine FILE] [-title T] SAMPLES.tsv TETSQL_DIR DUCKDB_DIR`)
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
