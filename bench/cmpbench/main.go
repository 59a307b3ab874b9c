// Command cmpbench times tetsql cells queries against the same queries on
// a native SQLite table (same process, same engine: modernc.org/sqlite
// behind the tetsql driver), for bench/compare.sh. DuckDB is timed by
// bench/duckdb (a separate module) and tet-py by bench/cmp_tetpy.py, in
// the same sample format; `cmpbench report` merges them.
//
//	cmpbench import -db FILE.db -table T -by DIM[,DIM] [-valueonly] TETFILE
//	cmpbench sql    [-n N] [-warm W] [-attach ALIAS=FILE.db]... DSN KEY=SQL ...
//	cmpbench mem    [-every D] DSN KEY SQL
//	cmpbench report [-o FILE] SAMPLES.tsv
//
// Output lines (tab-separated):
//
//	sample  KEY  WALL_SECONDS  CPU_SECONDS  BYTES
//	result  KEY  COLUMN=VALUE ...
//	load    KEY  WALL_SECONDS  CPU_SECONDS  ROWS  BYTES_ON_DISK
//	mem     KEY  WALL_SECONDS  name=KiB ...
package main

import (
	"bufio"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	_ "github.com/tetsql/tetsql"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "import":
		err = cmdImport(os.Args[2:])
	case "sql":
		err = cmdSQL(os.Args[2:])
	case "mem":
		err = cmdMem(os.Args[2:])
	case "report":
		err = cmdReport(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cmpbench:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage:
  cmpbench import -db FILE.db -table T -by DIM[,DIM] [-valueonly] TETFILE
  cmpbench sql    [-n N] [-warm W] [-attach ALIAS=FILE.db]... DSN KEY=SQL ...
  cmpbench mem    [-every D] DSN KEY SQL
  cmpbench report [-o FILE] SAMPLES.tsv`)
	os.Exit(2)
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// open opens DSN with the tetsql driver on one connection and attaches
// the native SQLite databases (read-only use; mmap on, like tetsql's
// mapping of .tet files).
func open(ctx context.Context, dsn string, attach []string) (*sql.DB, *sql.Conn, error) {
	db, err := sql.Open("tetsql", dsn)
	if err != nil {
		return nil, nil, err
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	for _, a := range attach {
		alias, path, ok := strings.Cut(a, "=")
		if !ok {
			return nil, nil, fmt.Errorf("-attach %q: want ALIAS=FILE", a)
		}
		for _, s := range []string{
			fmt.Sprintf("ATTACH DATABASE '%s' AS %s", strings.ReplaceAll(path, "'", "''"), alias),
			fmt.Sprintf("PRAGMA %s.mmap_size = %d", alias, int64(1)<<40),
			fmt.Sprintf("PRAGMA %s.query_only = 1", alias),
		} {
			if _, err := conn.ExecContext(ctx, s); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", s, err)
			}
		}
	}
	return db, conn, nil
}

// cmdImport creates table T in a new SQLite database file with the values
// of dataset T of TETFILE, read through the cells table in row-major order
// (one INSERT … SELECT per value of the leading dims named by -by).
// Default schema: T(dims INTEGER NOT NULL …, value REAL, PRIMARY KEY(dims))
// WITHOUT ROWID, so that selections on leading dims use the key.
// -valueonly: T(value REAL), a rowid table (the layout of vtab's
// BenchmarkScanVsNative).
func cmdImport(args []string) error {
	fs := flag.NewFlagSet("import", flag.ExitOnError)
	dbPath := fs.String("db", "", "SQLite file to create")
	table := fs.String("table", "", "dataset (and table) name")
	by := fs.String("by", "", "leading dims: one INSERT per combination of their values")
	valueOnly := fs.Bool("valueonly", false, "only a value column (rowid table)")
	fs.Parse(args)
	if fs.NArg() != 1 || *dbPath == "" || *table == "" || *by == "" {
		usage()
	}
	ctx := context.Background()
	os.Remove(*dbPath)
	db, conn, err := open(ctx, "tet="+fs.Arg(0), nil)
	if err != nil {
		return err
	}
	defer db.Close()
	defer conn.Close()
	var dimsCSV string
	if err := conn.QueryRowContext(ctx, "SELECT group_concat(name, ',') FROM (SELECT name FROM tet.tet_dims WHERE dataset = ? ORDER BY axis)", *table).Scan(&dimsCSV); err != nil {
		return fmt.Errorf("dims: %w", err)
	}
	dims := strings.Split(dimsCSV, ",")
	lead := strings.Split(*by, ",")
	for i, d := range lead {
		if i >= len(dims) || dims[i] != d {
			return fmt.Errorf("-by %s: must be leading dims of %v", *by, dims)
		}
	}
	rest := dims[len(lead):]
	sizes := make([]int, len(lead))
	for i, d := range lead {
		if err := conn.QueryRowContext(ctx, "SELECT size FROM tet.tet_dims WHERE dataset = ? AND name = ?", *table, d).Scan(&sizes[i]); err != nil {
			return err
		}
	}
	t0, c0 := time.Now(), cpuTime()
	for _, s := range []string{
		fmt.Sprintf("ATTACH DATABASE '%s' AS nat", strings.ReplaceAll(*dbPath, "'", "''")),
		"PRAGMA nat.journal_mode = OFF",
		"PRAGMA nat.synchronous = OFF",
		"PRAGMA nat.cache_size = -262144", // 256 MiB
	} {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	var create, sel string
	var where []string
	for _, d := range lead {
		where = append(where, d+" = ?")
	}
	if *valueOnly {
		create = fmt.Sprintf("CREATE TABLE nat.%s (value REAL)", *table)
		sel = fmt.Sprintf("INSERT INTO nat.%s SELECT value FROM tet.%s WHERE %s ORDER BY %s",
			*table, *table, strings.Join(where, " AND "), strings.Join(rest, ", "))
	} else {
		var cols []string
		for _, d := range dims {
			cols = append(cols, d+" INTEGER NOT NULL")
		}
		create = fmt.Sprintf("CREATE TABLE nat.%s (%s, value REAL, PRIMARY KEY (%s)) WITHOUT ROWID",
			*table, strings.Join(cols, ", "), strings.Join(dims, ", "))
		sel = fmt.Sprintf("INSERT INTO nat.%s SELECT %s, value FROM tet.%s WHERE %s ORDER BY %s",
			*table, strings.Join(dims, ", "), *table, strings.Join(where, " AND "), strings.Join(rest, ", "))
	}
	if _, err := conn.ExecContext(ctx, create); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return err
	}
	idx := make([]int, len(lead))
	var n int64
	for {
		qa := make([]any, len(lead))
		for i := range lead {
			qa[i] = idx[i]
		}
		r, err := conn.ExecContext(ctx, sel, qa...)
		if err != nil {
			return err
		}
		k, _ := r.RowsAffected()
		n += k
		j := len(lead) - 1
		for ; j >= 0; j-- {
			idx[j]++
			if idx[j] < sizes[j] {
				break
			}
			idx[j] = 0
		}
		if j < 0 {
			break
		}
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "DETACH DATABASE nat"); err != nil {
		return err
	}
	wall, cpu := time.Since(t0), cpuTime()-c0
	st, err := os.Stat(*dbPath)
	if err != nil {
		return err
	}
	kind := "pk"
	if *valueOnly {
		kind = "valueonly"
	}
	fmt.Printf("load\tsqlite-%s/%s\t%.3f\t%.3f\t%d\t%d\n", kind, filepath.Base(*dbPath), wall.Seconds(), cpu.Seconds(), n, st.Size())
	return nil
}

// cmdSQL runs each KEY=SQL query W times unmeasured (its result is
// printed), then N times measured, round-robin over the queries.
func cmdSQL(args []string) error {
	fs := flag.NewFlagSet("sql", flag.ExitOnError)
	n := fs.Int("n", 3, "measured repetitions per query")
	warm := fs.Int("warm", 1, "unmeasured repetitions per query first (0: the result of the first measured one is printed)")
	var attach multiFlag
	fs.Var(&attach, "attach", "ALIAS=FILE.db: attach a native SQLite database (repeatable)")
	fs.Parse(args)
	if fs.NArg() < 2 {
		usage()
	}
	ctx := context.Background()
	db, conn, err := open(ctx, fs.Arg(0), attach)
	if err != nil {
		return err
	}
	defer db.Close()
	defer conn.Close()
	type query struct{ key, sql string }
	var qs []query
	for _, a := range fs.Args()[1:] {
		k, q, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("%q: want KEY=SQL", a)
		}
		qs = append(qs, query{k, q})
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for _, q := range qs {
		var res string
		for i := 0; i < *warm; i++ {
			if res, err = runQuery(ctx, conn, q.sql); err != nil {
				return fmt.Errorf("%s: %w", q.key, err)
			}
		}
		if *warm > 0 {
			fmt.Fprintf(out, "result\t%s%s\n", q.key, res)
			out.Flush()
		}
	}
	for i := 0; i < *n; i++ {
		for _, q := range qs {
			c0, t0 := cpuTime(), time.Now()
			res, err := runQuery(ctx, conn, q.sql)
			if err != nil {
				return fmt.Errorf("%s: %w", q.key, err)
			}
			if i == 0 && *warm == 0 {
				defer fmt.Fprintf(out, "result\t%s%s\n", q.key, res)
			}
			fmt.Fprintf(out, "sample\t%s\t%.9f\t%.9f\t0\n", q.key, time.Since(t0).Seconds(), (cpuTime() - c0).Seconds())
		}
	}
	return nil
}

func runQuery(ctx context.Context, conn *sql.Conn, q string) (string, error) {
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return "", err
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
