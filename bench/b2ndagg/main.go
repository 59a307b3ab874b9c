// Command b2ndagg times tetsql queries over a Blosc2 NDim (.b2nd) file
// against the same values in .tet files, side by side in one run, and
// checks that every file gives the same answers. bench/b2nd/agg.sh drives
// it; bench/b2nd/make_cube.py writes the .b2nd files.
//
//	b2ndagg convert [-codec zstd|raw] IN.b2nd OUT.tet       .b2nd → .tet, same chunk shape, then every chunk compared
//	b2ndagg run     [-n N] [-fresh F] [-cpuprofile F] [-only K,...] NAME=DSN ...
//	b2ndagg one     DSN SQL                                  one query once (the child of a fresh run)
//	b2ndagg report  [-o FILE] [-pairs A/B,...] SAMPLES.tsv
//
// run opens each DSN (a file path, optionally with ?options) on its own
// connection in the default configuration, runs every query once per file
// unmeasured and compares the answers with the first file's, then times
// N rounds that alternate between the files query by query (the order of
// the files turns each round), and then, with -fresh F, F rounds of one
// new process per query and file (process start, open, query, exit,
// timed from outside; CPU time is the child's user+system time). It
// writes tab-separated lines:
//
//	sample  MODE  NAME  QUERY  WALL_SECONDS  CPU_SECONDS    (MODE warm or fresh)
//	check   QUERY  NAME  VERDICT
//	size    NAME  BYTES
//	query   QUERY  SQL
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
	case "convert":
		err = cmdConvert(os.Args[2:])
	case "run":
		err = cmdRun(os.Args[2:])
	case "one":
		err = cmdOne(os.Args[2:])
	case "report":
		err = cmdReport(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "b2ndagg:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage:
  b2ndagg convert [-codec zstd|raw] IN.b2nd OUT.tet
  b2ndagg run     [-n N] [-fresh F] [-cpuprofile F] [-only K,...] NAME=DSN ...
  b2ndagg one     DSN SQL
  b2ndagg report  [-o FILE] [-pairs A/B,...] SAMPLES.tsv`)
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
