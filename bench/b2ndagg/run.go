package main

import (
	"bufio"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime/pprof"
	"strings"
	"time"

	_ "github.com/tetsql/tetsql"
)

// file is one DSN under test, on its own connection.
type file struct {
	name, dsn, table string
	db               *sql.DB
	conn             *sql.Conn
	digest           map[string]string // query key → digest of the warm answer
}

// cmdRun times the queries over the files; see the package comment.
func cmdRun(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	n := fs.Int("n", 5, "warm rounds (each query once per file and round)")
	fresh := fs.Int("fresh", 3, "fresh rounds (one process per query and file; 0 = none)")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the warm rounds to this file")
	only := fs.String("only", "", "comma-separated query keys to run (default all)")
	fs.Parse(args)
	if fs.NArg() < 1 {
		return fmt.Errorf("run: want NAME=DSN ...")
	}
	qs, err := pick(*only)
	if err != nil {
		return err
	}
	ctx := context.Background()
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	var files []*file
	defer func() {
		for _, f := range files {
			f.close()
		}
	}()
	for _, a := range fs.Args() {
		name, dsn, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("run: %q: want NAME=DSN", a)
		}
		f, err := openFile(ctx, name, dsn)
		if err != nil {
			return err
		}
		files = append(files, f)
		path, _, _ := strings.Cut(dsn, "?")
		if st, err := os.Stat(path); err == nil {
			fmt.Fprintf(out, "size\t%s\t%d\n", name, st.Size())
		}
	}
	p99, err := p99Threshold(ctx, files[0].conn, files[0].table)
	if err != nil {
		return err
	}
	// One unmeasured run per query and file, whose answers are compared
	// with the first file's.
	for _, q := range qs {
		fmt.Fprintf(out, "query\t%s\t%s\n", q.key, strings.ReplaceAll(q.sql, "{P99}", p99))
		var ref [][]any
		for i, f := range files {
			sq := bind(q.sql, f.table, p99)
			rows, err := fetch(ctx, f.conn, sq)
			if err != nil {
				return fmt.Errorf("%s on %s: %w", q.key, f.name, err)
			}
			f.digest[q.key] = digest(sq, rows)
			rows = sorted(sq, rows)
			if i == 0 {
				ref = rows
				fmt.Fprintf(out, "check\t%s\t%s\treference (%s)\n", q.key, f.name, f.digest[q.key])
				continue
			}
			fmt.Fprintf(out, "check\t%s\t%s\t%s\n", q.key, f.name, compare(ref, rows))
		}
	}
	out.Flush()
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
	for r := 0; r < *n; r++ {
		for _, q := range qs {
			for k := range files {
				f := files[(k+r)%len(files)] // each file goes first in turn
				sq := bind(q.sql, f.table, p99)
				c0, t0 := cpuTime(), time.Now()
				_, err := fetch(ctx, f.conn, sq)
				wall, cpu := time.Since(t0), cpuTime()-c0
				if err != nil {
					return fmt.Errorf("%s on %s: %w", q.key, f.name, err)
				}
				fmt.Fprintf(out, "sample\twarm\t%s\t%s\t%.9f\t%.9f\n", f.name, q.key, wall.Seconds(), cpu.Seconds())
			}
		}
		out.Flush()
	}
	if *fresh == 0 {
		return nil
	}
	// The warm connections and their caches go before the fresh runs.
	for _, f := range files {
		f.close()
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	for r := 0; r < *fresh; r++ {
		for _, q := range qs {
			for k := range files {
				f := files[(k+r)%len(files)]
				t0 := time.Now()
				cmd := exec.Command(self, "one", f.dsn, bind(q.sql, f.table, p99))
				cmd.Stderr = os.Stderr
				got, err := cmd.Output()
				wall := time.Since(t0)
				if err != nil {
					return fmt.Errorf("fresh %s on %s: %w", q.key, f.name, err)
				}
				if d := strings.TrimSpace(string(got)); d != f.digest[q.key] {
					fmt.Fprintf(out, "check\t%s\t%s\tDIFFER: fresh answer %s, warm %s\n", q.key, f.name, d, f.digest[q.key])
				}
				cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				fmt.Fprintf(out, "sample\tfresh\t%s\t%s\t%.9f\t%.9f\n", f.name, q.key, wall.Seconds(), cpu.Seconds())
			}
		}
		out.Flush()
	}
	return nil
}

func pick(only string) ([]query, error) {
	if only == "" {
		return queries, nil
	}
	var qs []query
	for _, k := range strings.Split(only, ",") {
		found := false
		for _, q := range queries {
			if q.key == k {
				qs, found = append(qs, q), true
			}
		}
		if !found {
			return nil, fmt.Errorf("run: no query %q", k)
		}
	}
	return qs, nil
}

func openFile(ctx context.Context, name, dsn string) (*file, error) {
	db, err := sql.Open("tetsql", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx) // one connection: the file is attached once
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f := &file{name: name, dsn: dsn, db: db, conn: conn, digest: map[string]string{}}
	if f.table, err = tableName(ctx, conn); err != nil {
		f.close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

func (f *file) close() {
	if f.conn != nil {
		f.conn.Close()
		f.db.Close()
		f.conn = nil
	}
}

// cmdOne opens DSN, runs SQL once and prints the answer's digest.
func cmdOne(args []string) error {
	fs := flag.NewFlagSet("one", flag.ExitOnError)
	profile := fs.String("cpuprofile", "", "write a CPU profile (open and query) to this file")
	fs.Parse(args)
	if fs.NArg() != 2 {
		return fmt.Errorf("one: want DSN SQL")
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
	ctx := context.Background()
	db, err := sql.Open("tetsql", fs.Arg(0))
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	rows, err := fetch(ctx, conn, fs.Arg(1))
	if err != nil {
		return err
	}
	fmt.Println(digest(fs.Arg(1), rows))
	return nil
}
