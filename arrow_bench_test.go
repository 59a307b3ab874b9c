package tetsql_test

import (
	"context"
	"database/sql"
	"io"
	"testing"

	"github.com/tetsql/tetsql"
)

// BenchmarkExportFormats measures export throughput of one query in each
// format side by side: 250,344 rows × 7 columns (3 dims, 3 labels, an
// f32 value) into io.Discard; "scan" only scans the rows through
// database/sql, the floor of any export of *sql.Rows.
func BenchmarkExportFormats(b *testing.B) {
	db := openDemo(b)
	const q = "SELECT * FROM pressure"
	writers := []struct {
		name  string
		write func(io.Writer, *sql.Rows) (int64, error)
	}{
		{"scan", func(_ io.Writer, r *sql.Rows) (int64, error) { return scanAll(r) }},
		{"parquet", func(w io.Writer, r *sql.Rows) (int64, error) {
			return tetsql.WriteParquet(w, r, tetsql.ParquetOptions{})
		}},
		{"arrow", func(w io.Writer, r *sql.Rows) (int64, error) { return tetsql.WriteArrow(w, r, tetsql.ArrowOptions{}) }},
		{"arrowfile", func(w io.Writer, r *sql.Rows) (int64, error) {
			return tetsql.WriteArrowFile(w, r, tetsql.ArrowOptions{})
		}},
	}
	for _, wr := range writers {
		b.Run(wr.name, func(b *testing.B) {
			var n int64
			for b.Loop() {
				rows, err := db.Query(q)
				if err != nil {
					b.Fatal(err)
				}
				k, err := wr.write(io.Discard, rows)
				rows.Close()
				if err != nil || k != 250344 {
					b.Fatalf("%d rows, %v", k, err)
				}
				n += k
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "rows/s")
		})
	}
	// The same through NewExport: the fast path, straight from the scan.
	fast := []struct {
		name  string
		write func(*tetsql.Export, io.Writer) (int64, error)
	}{
		{"parquet-fast", func(e *tetsql.Export, w io.Writer) (int64, error) {
			return e.WriteParquet(context.Background(), w, tetsql.ParquetOptions{})
		}},
		{"arrow-fast", func(e *tetsql.Export, w io.Writer) (int64, error) {
			return e.WriteArrow(context.Background(), w, tetsql.ArrowOptions{})
		}},
	}
	for _, wr := range fast {
		b.Run(wr.name, func(b *testing.B) {
			ctx := context.Background()
			conn, err := db.Conn(ctx)
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			var n int64
			for b.Loop() {
				e, err := tetsql.NewExport(ctx, conn, q)
				if err != nil {
					b.Fatal(err)
				}
				k, err := wr.write(e, io.Discard)
				if err != nil || k != 250344 || !e.TookScan() {
					b.Fatalf("%d rows, fast path %v, %v", k, e.TookScan(), err)
				}
				n += k
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// scanAll scans every row into []any as the writers do and counts them.
func scanAll(rows *sql.Rows) (int64, error) {
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var n int64
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}
