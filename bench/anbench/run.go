package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	_ "github.com/tetsql/tetsql"
)

// cmdSQL opens FILE once (one connection) and runs each KEY=SQL query W
// times unmeasured, then N times measured, round-robin over the queries
// so that machine noise hits them alike.
func cmdSQL(args []string) error {
	fs := flag.NewFlagSet("sql", flag.ExitOnError)
	n := fs.Int("n", 3, "measured repetitions per query")
	warm := fs.Int("warm", 1, "unmeasured repetitions per query first")
	outDir := fs.String("out", "", "write each query's rows (first run) to DIR/KEY.tsv")
	timeout := fs.Duration("timeout", 5*time.Minute, "give up a query after this long")
	cpuprof := fs.String("cpuprofile", "", "write a CPU profile of the measured repetitions to FILE")
	fs.Parse(args)
	if fs.NArg() < 2 {
		return fmt.Errorf("sql: want FILE KEY=SQL ...")
	}
	db, err := sql.Open("tetsql", fs.Arg(0))
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	type query struct{ key, sql string }
	var qs []query
	for _, a := range fs.Args()[1:] {
		k, q, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("sql: %q: want KEY=SQL", a)
		}
		qs = append(qs, query{k, q})
	}
	failed := map[string]bool{}
	run := func(q query, save bool) error {
		qctx, cancel := context.WithTimeout(ctx, *timeout)
		defer cancel()
		var w *bufio.Writer
		if save && *outDir != "" {
			f, err := os.Create(filepath.Join(*outDir, q.key+".tsv"))
			if err != nil {
				return err
			}
			defer f.Close()
			w = bufio.NewWriter(f)
			defer w.Flush()
		}
		return runQuery(qctx, conn, q.sql, w)
	}
	fail := func(q query, err error) {
		failed[q.key] = true
		msg := strings.ReplaceAll(err.Error(), "\n", " ")
		if errors.Is(err, context.DeadlineExceeded) {
			msg = "timeout after " + timeout.String() + ": " + msg
		}
		fmt.Printf("error\t%s\t%s\n", q.key, msg)
	}
	for _, q := range qs {
		for i := 0; i < *warm && !failed[q.key]; i++ {
			if err := run(q, i == 0); err != nil {
				fail(q, err)
			}
		}
	}
	if *cpuprof != "" {
		f, err := os.Create(*cpuprof)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	for i := 0; i < *n; i++ {
		for _, q := range qs {
			if failed[q.key] {
				continue
			}
			c0, t0 := cpuTime(), time.Now()
			err := run(q, i == 0 && *warm == 0)
			wall, cpu := time.Since(t0), cpuTime()-c0
			if err != nil {
				fail(q, err)
				continue
			}
			fmt.Printf("sample\t%s\t%.9f\t%.9f\t0\n", q.key, wall.Seconds(), cpu.Seconds())
		}
	}
	return nil
}

// runQuery reads every row of q, writing them tab-separated to w when w
// is not nil (integers as integers, floats in the shortest form that
// reads back exactly, NULL as NULL).
func runQuery(ctx context.Context, conn *sql.Conn, q string, w *bufio.Writer) error {
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var line []byte
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if w == nil {
			continue
		}
		line = line[:0]
		for i, v := range vals {
			if i > 0 {
				line = append(line, '\t')
			}
			line = appendValue(line, v)
		}
		line = append(line, '\n')
		w.Write(line)
	}
	return rows.Err()
}

func appendValue(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "NULL"...)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case float64:
		return strconv.AppendFloat(b, v, 'g', -1, 64)
	case []byte:
		return append(b, v...)
	case string:
		return append(b, v...)
	case time.Time:
		return v.AppendFormat(b, time.RFC3339)
	}
	return fmt.Append(b, v)
}
