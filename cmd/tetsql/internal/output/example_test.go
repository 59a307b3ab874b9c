package output_test

import (
	"fmt"
	"os"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

func ExampleNew() {
	cols := []output.Column{{Name: "station", Type: "TEXT"}, {Name: "temp", Type: "REAL"}}
	for _, mode := range []output.Mode{output.Box, output.CSV, output.JSON} {
		w, err := output.New(mode, os.Stdout, output.Options{Header: true})
		if err != nil {
			panic(err)
		}
		w.Header(cols)
		w.Row([]any{"東京", 12.5})
		w.Row([]any{"Zürich", nil})
		if err := w.Close(); err != nil {
			panic(err)
		}
	}
	// Output:
	// ┌─────────┬──────┐
	// │ station │ temp │
	// ├─────────┼──────┤
	// │ 東京    │ 12.5 │
	// │ Zürich  │      │
	// └─────────┴──────┘
	// station,temp
	// 東京,12.5
	// Zürich,
	// [{"station":"東京","temp":12.5},
	// {"station":"Zürich","temp":null}]
}

func ExampleParseMode() {
	_, err := output.ParseMode("xml")
	fmt.Println(err)
	m, _ := output.ParseMode("tabs")
	fmt.Println(m)
	// Output:
	// output: unknown mode "xml" (valid modes: box, table, csv, tsv, json, jsonl, markdown, line, list, column, parquet, arrow)
	// tsv
}
