// Command duckbench loads the values of a .tet dataset into a DuckDB
// database file and times SQL queries on it, for bench/compare.sh. It is
// a separate module so that the tetsql module does not depend on DuckDB.
//
//	duckbench load -db FILE.duckdb -table T -by DIM[,DIM] TETFILE
//	duckbench sql  [-n N] [-warm W] [-threads T] FILE.duckdb KEY=SQL ...
//
// load reads the dataset through tetsql (database/sql), one query per
// value of the leading dims named by -by (ORDER BY the remaining dims, so
// rows arrive in row-major order), and appends them with DuckDB's
// appender to a table T(dim INTEGER..., value FLOAT). It prints the load
// time and the database size as "load" lines.
//
// sql prints the same tab-separated lines as bench/aggbench:
//
//	sample  KEY  WALL_SECONDS  CPU_SECONDS  BYTES
//	result  KEY  COLUMN=VALUE ...
package main

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/duckdb/duckdb-go/v2"
	_ "github.com/tetsql/tetsql"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "load":
		err = cmdLoad(os.Args[2:])
	case "sql":
		err = cmdSQL(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "duckbench:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage:
  duckbench load -db FILE.duckdb -table T -by DIM[,DIM] TETFILE
  duckbench sql  [-n N] [-warm W] [-threads T] FILE.duckdb KEY=SQL ...`)
	os.Exit(2)
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func cmdLoad(args []string) error {
	fs := flag.NewFlagSet("load", flag.ExitOnError)
	dbPath := fs.String("db", "", "DuckDB file to create")
	table := fs.String("table", "", "dataset (and table) name")
	by := fs.String("by", "", "leading dims: one tetsql query per combination of their values")
	fs.Parse(args)
	if fs.NArg() != 1 || *dbPath == "" || *table == "" || *by == "" {
		usage()
	}
	ctx := context.Background()
	tdb, err := sql.Open("tetsql", "tet="+fs.Arg(0))
	if err != nil {
		return err
	}
	defer tdb.Close()
	// Dims and shape.
	var dimsCSV string
	if err := tdb.QueryRow("SELECT group_concat(name, ',') FROM (SELECT name FROM tet.tet_dims WHERE dataset = ? ORDER BY axis)", *table).Scan(&dimsCSV); err != nil {
		return fmt.Errorf("dims: %w", err)
	}
	dims := strings.Split(dimsCSV, ",")
	sizes := map[string]int{}
	for _, d := range dims {
		var n int
		if err := tdb.QueryRow("SELECT size FROM tet.tet_dims WHERE dataset = ? AND name = ?", *table, d).Scan(&n); err != nil {
			return fmt.Errorf("dim %s: %w", d, err)
		}
		sizes[d] = n
	}
	lead := strings.Split(*by, ",")
	rest := dims[len(lead):]
	for i, d := range lead {
		if dims[i] != d {
			return fmt.Errorf("-by %s: must be the leading dims of %v", *by, dims)
		}
	}

	os.Remove(*dbPath)
	os.Remove(*dbPath + ".wal")
	c, err := duckdb.NewConnector(*dbPath, nil)
	if err != nil {
		return err
	}
	ddb := sql.OpenDB(c)
	defer ddb.Close()
	var cols []string
	for _, d := range dims {
		cols = append(cols, d+" INTEGER")
	}
	cols = append(cols, "value FLOAT")
	if _, err := ddb.Exec(fmt.Sprintf("CREATE TABLE %s (%s)", *table, strings.Join(cols, ", "))); err != nil {
		return err
	}
	conn, err := c.Connect(ctx)
	if err != nil {
		return err
	}
	app, err := duckdb.NewAppenderFromConn(conn, "", *table)
	if err != nil {
		return err
	}

	var where []string
	for _, d := range lead {
		where = append(where, d+" = ?")
	}
	q := fmt.Sprintf("SELECT %s, value FROM tet.%s WHERE %s ORDER BY %s",
		strings.Join(rest, ", "), *table, strings.Join(where, " AND "), strings.Join(rest, ", "))
	stmt, err := tdb.Prepare(q)
	if err != nil {
		return err
	}
	t0, c0 := time.Now(), cpuTime()
	idx := make([]int, len(lead))
	rowVals := make([]driver.Value, len(dims)+1)
	restVals := make([]int64, len(rest))
	scan := make([]any, len(rest)+1)
	for i := range rest {
		scan[i] = &restVals[i]
	}
	var v sql.NullFloat64
	scan[len(rest)] = &v
	var n int64
	for {
		qa := make([]any, len(lead))
		for i := range lead {
			qa[i] = idx[i]
			rowVals[i] = int32(idx[i])
		}
		rows, err := stmt.Query(qa...)
		if err != nil {
			return err
		}
		for rows.Next() {
			if err := rows.Scan(scan...); err != nil {
				return err
			}
			for i := range rest {
				rowVals[len(lead)+i] = int32(restVals[i])
			}
			if v.Valid {
				rowVals[len(dims)] = float32(v.Float64)
			} else {
				rowVals[len(dims)] = nil
			}
			if err := app.AppendRow(rowVals...); err != nil {
				return err
			}
			n++
		}
		if err := rows.Close(); err != nil {
			return err
		}
		// next combination of the leading dims
		k := len(lead) - 1
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < sizes[lead[k]] {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			break
		}
	}
	if err := app.Close(); err != nil {
		return err
	}
	conn.Close()
	if _, err := ddb.Exec("CHECKPOINT"); err != nil {
		return err
	}
	wall, cpu := time.Since(t0), cpuTime()-c0
	ddb.Close()
	var size int64
	for _, p := range []string{*dbPath, *dbPath + ".wal"} {
		if st, err := os.Stat(p); err == nil {
			size += st.Size()
		}
	}
	fmt.Printf("load\tduckdb/%s\t%.3f\t%.3f\t%d\t%d\n", filepath.Base(*dbPath), wall.Seconds(), cpu.Seconds(), n, size)
	return nil
}

func cmdSQL(args []string) error {
	fs := flag.NewFlagSet("sql", flag.ExitOnError)
	n := fs.Int("n", 3, "measured repetitions per query")
	warm := fs.Int("warm", 1, "unmeasured repetitions per query first (0: the result of the first measured one is printed)")
	threads := fs.Int("threads", 0, "DuckDB threads (0: DuckDB's default, the number of cores)")
	outDir := fs.String("out", "", "write each query's rows (first run) to DIR/KEY.tsv, as bench/anbench does; a failing query then prints an error line and the others go on")
	fs.Parse(args)
	if fs.NArg() < 2 {
		usage()
	}
	dsn := fs.Arg(0) + "?access_mode=read_only"
	if *threads > 0 {
		dsn += fmt.Sprintf("&threads=%d", *threads)
	}
	db, err := sql.Open("duckdb", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	type query struct{ key, sql string }
	var qs []query
	for _, a := range fs.Args()[1:] {
		k, q, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("%q: want KEY=SQL", a)
		}
		qs = append(qs, query{k, q})
	}
	failed, saved := map[string]bool{}, map[string]bool{}
	run := func(q query) (string, error) {
		if failed[q.key] {
			return "", errSkip
		}
		if *outDir != "" {
			path := "" // rows written by the first run only, as anbench does
			if !saved[q.key] {
				path, saved[q.key] = filepath.Join(*outDir, q.key+".tsv"), true
			}
			err := saveRows(db, q.sql, path)
			if err != nil {
				failed[q.key] = true
				fmt.Printf("error\t%s\t%s\n", q.key, strings.ReplaceAll(err.Error(), "\n", " "))
				return "", errSkip
			}
			return "", nil
		}
		rows, err := db.Query(q.sql)
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
				v := vals[i]
				if f, ok := v.(float32); ok { // print like SQLite's REAL
					v = float64(f)
				}
				fmt.Fprintf(&sb, "\t%s=%v", c, v)
			}
		}
		return sb.String(), rows.Err()
	}
	for _, q := range qs {
		var res string
		for i := 0; i < *warm; i++ {
			if res, err = run(q); err == errSkip {
				break
			} else if err != nil {
				return err
			}
		}
		if *warm > 0 && *outDir == "" {
			fmt.Printf("result\t%s%s\n", q.key, res)
		}
	}
	for i := 0; i < *n; i++ {
		for _, q := range qs {
			c0, t0 := cpuTime(), time.Now()
			res, err := run(q)
			if err == errSkip {
				continue
			} else if err != nil {
				return err
			}
			if i == 0 && *warm == 0 && *outDir == "" {
				defer fmt.Printf("result\t%s%s\n", q.key, res)
			}
			fmt.Printf("sample\t%s\t%.9f\t%.9f\t0\n", q.key, time.Since(t0).Seconds(), (cpuTime() - c0).Seconds())
		}
	}
	return nil
}
