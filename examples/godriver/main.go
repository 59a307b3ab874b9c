// Command godriver shows how to query .tet files from Go with the tetsql
// database/sql driver: it opens the file named on the command line, runs
// one query (by default a list of the file's datasets) and prints the
// rows tab-separated, NULL for SQL NULL.
//
//	go run ./examples/godriver testdata/demo.tet "SELECT * FROM temperature LIMIT 5"
//
// Copy it as a starting point: the first argument is a tetsql DSN, so it
// may also name several files and options ("a=x.tet;b=y.tet?read_ahead=4").
package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"

	_ "github.com/tetsql/tetsql" // registers the "tetsql" driver
)

func main() {
	if len(os.Args) < 2 || len(os.Args) > 3 {
		fmt.Fprintln(os.Stderr, "usage: godriver FILE.tet [SQL]")
		os.Exit(2)
	}
	query := "SELECT name, dtype, shape FROM tet_datasets"
	if len(os.Args) == 3 {
		query = os.Args[2]
	}
	// Ctrl-C cancels the query: the scan stops and the error is context.Canceled.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1], query); err != nil {
		fmt.Fprintln(os.Stderr, "godriver:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dsn, query string) error {
	db, err := sql.Open("tetsql", dsn)
	if err != nil {
		return err
	}
	defer db.Close()

	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	fmt.Println(strings.Join(cols, "\t"))
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	line := make([]string, len(cols))
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, v := range vals {
			line[i] = format(v)
		}
		fmt.Println(strings.Join(line, "\t"))
	}
	return rows.Err()
}

// format renders one value: floats in their shortest round-trip form.
func format(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case []byte:
		return string(v)
	}
	return fmt.Sprint(v)
}
