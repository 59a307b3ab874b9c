package tetsql_test

import (
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"log"
	"os"
	"strconv"

	"github.com/tetsql/tetsql"
)

// Open a file and read a dataset's cells: one row per element, with one
// column per axis and the value.
func Example() {
	db, err := sql.Open("tetsql", "testdata/reference/sample.tet")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	rows, err := db.Query("SELECT d0, d1, value FROM temperature ORDER BY d0, d1")
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var d0, d1 int
		var value float64
		if err := rows.Scan(&d0, &d1, &value); err != nil {
			log.Fatal(err)
		}
		fmt.Println(d0, d1, value)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 0 0 1
	// 0 1 2
	// 0 2 3
	// 1 0 4
	// 1 1 5
	// 1 2 6
}

// Select a slice by coordinate labels: the planner turns label equalities
// and ranges into index ranges, so only the chunks holding those days and
// stations are decoded. A NaN reading comes back as NULL.
func Example_queryByLabels() {
	db, err := sql.Open("tetsql", "testdata/demo.tet")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	rows, err := db.Query(`
		SELECT time_label, station_label, round(value, 1)
		FROM temperature
		WHERE station_label IN ('Lagos', 'Nairobi')
		  AND time_label BETWEEN '2024-06-30' AND '2024-07-02'
		ORDER BY time_label, station_label`)
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var day, station string
		var temp sql.NullFloat64
		if err := rows.Scan(&day, &station, &temp); err != nil {
			log.Fatal(err)
		}
		fmt.Println(day, station, temp.Float64, temp.Valid)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 2024-06-30 Lagos 28.3 true
	// 2024-06-30 Nairobi 17.1 true
	// 2024-07-01 Lagos 0 false
	// 2024-07-01 Nairobi 16.3 true
	// 2024-07-02 Lagos 0 false
	// 2024-07-02 Nairobi 15.5 true
}

// Join two files: each is attached as its own schema, named by an alias.
func Example_joinFiles() {
	db, err := sql.Open("tetsql", "t=testdata/reference/sample.tet;u=testdata/reference/multichunk_u8.tet")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	var n int
	var dot float64
	err = db.QueryRow(`
		SELECT count(*), sum(t.value * u.value)
		FROM t.temperature AS t JOIN u.a AS u ON t.d0 = u.d0 AND t.d1 = u.d1`).Scan(&n, &dot)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "pairs, dot product", dot)
	// Output:
	// 6 pairs, dot product 91
}

// Export query results as CSV with encoding/csv; NULL becomes an empty
// field.
func Example_exportCSV() {
	db, err := sql.Open("tetsql", "testdata/demo.tet")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	rows, err := db.Query(`
		SELECT time_label AS day, round(value, 1) AS temperature
		FROM temperature
		WHERE station_label = 'Moscow' AND time_label BETWEEN '2024-02-08' AND '2024-02-11'`)
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	w := csv.NewWriter(os.Stdout)
	cols, _ := rows.Columns()
	w.Write(cols)
	for rows.Next() {
		var day string
		var temp sql.NullFloat64
		if err := rows.Scan(&day, &temp); err != nil {
			log.Fatal(err)
		}
		field := ""
		if temp.Valid {
			field = strconv.FormatFloat(temp.Float64, 'g', -1, 64)
		}
		w.Write([]string{day, field})
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// day,temperature
	// 2024-02-08,-7.8
	// 2024-02-09,-8.3
	// 2024-02-10,
	// 2024-02-11,
}

// Read the statistics of the scans a connection ran: pushdown on d1 = 2
// decodes one of the dataset's two chunks. The sum is answered by the
// dataset's _agg companion (one row for the whole selection), not by
// passing every element through SQLite.
func ExampleScans() {
	db, err := sql.Open("tetsql", "testdata/reference/sample.tet")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	ctx := context.Background()
	conn, err := db.Conn(ctx) // statistics are kept per connection
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()

	var sum float64
	if err := conn.QueryRowContext(ctx, "SELECT sum(value) FROM temperature WHERE d1 = 2").Scan(&sum); err != nil {
		log.Fatal(err)
	}
	scans, err := tetsql.Scans(ctx, conn)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("sum:", sum)
	for _, s := range scans {
		fmt.Printf("%s: chunks %d/%d, rows %d, bytes read %d\n", s.Table, s.ChunksDecoded, s.ChunksTotal, s.Rows, s.BytesRead)
	}
	// Output:
	// sum: 9
	// sample.temperature_agg: chunks 1/2, rows 1, bytes read 8
}

// Parse a DSN: files with optional aliases, then options.
func ExampleParseDSN() {
	cfg, err := tetsql.ParseDSN("era5=/data/era5.tet;/data/stations.tet?max_chunk_bytes=256MiB&read_ahead=4")
	if err != nil {
		log.Fatal(err)
	}
	aliases, _ := cfg.Aliases()
	for i, f := range cfg.Files {
		fmt.Println(aliases[i], f.Path)
	}
	fmt.Println(cfg.MaxChunkBytes, cfg.ReadAhead, cfg.DecodeParallelism)

	_, err = tetsql.ParseDSN("/data/era5.tet?read_ahead=lots")
	fmt.Println(err)
	// Output:
	// era5 /data/era5.tet
	// stations /data/stations.tet
	// 268435456 4 0
	// tetsql: DSN option read_ahead="lots": want a number of chunks from 0 to 64
}

// Configure a database in Go instead of a DSN string.
func ExampleNewConnector() {
	c, err := tetsql.NewConnector(tetsql.Config{
		Files:     []tetsql.FileSpec{{Alias: "s", Path: "testdata/reference/sample.tet"}},
		ReadAhead: 2,
	})
	if err != nil {
		log.Fatal(err)
	}
	db := sql.OpenDB(c)
	defer db.Close()

	var name, shape string
	if err := db.QueryRow("SELECT name, shape FROM s.tet_datasets").Scan(&name, &shape); err != nil {
		log.Fatal(err)
	}
	fmt.Println(name, shape)
	// Output:
	// temperature [2,3]
}
