package tetsql_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log"

	"github.com/parquet-go/parquet-go"

	"github.com/tetsql/tetsql"
)

// Export a query's result as Parquet. A plain projection of a cells table
// is written straight from the table's scan; the i32 elevation keeps its
// width as INT(32, signed).
func ExampleNewExport() {
	db, err := sql.Open("tetsql", "testdata/demo.tet")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()

	e, err := tetsql.NewExport(ctx, conn, "SELECT station_label, value FROM elevation WHERE station < 10")
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer // a file in practice: write to a temporary name, rename on success
	n, err := e.WriteParquet(ctx, &buf, tetsql.ParquetOptions{})
	if err != nil {
		log.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "rows, fast path:", e.Fast())
	for _, c := range f.Schema().Fields() {
		fmt.Println(c.Name(), c.Type())
	}
	// Output:
	// 10 rows, fast path: true
	// station_label STRING
	// value INT(32,true)
}
