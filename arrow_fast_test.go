package tetsql_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/tetcore"
)

// exportArrowQuery exports q through NewExport on one connection of db
// (a file if file) and reports whether the rows came straight from a
// cells scan.
func exportArrowQuery(t *testing.T, db *sql.DB, q string, file bool, opts tetsql.ArrowOptions) ([]byte, int64, bool, error) {
	t.Helper()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	e, err := tetsql.NewExport(ctx, conn, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	write := e.WriteArrow
	if file {
		write = e.WriteArrowFile
	}
	var buf bytes.Buffer
	n, err := write(ctx, &buf, opts)
	return buf.Bytes(), n, e.TookScan(), err
}

// TestExportArrowFast: Export.WriteArrow writes the very bytes the
// function WriteArrow writes, whether the fast path took the query or
// not, in both formats and with batches split across scan fills.
func TestExportArrowFast(t *testing.T) {
	demo := openDemo(t)
	ints, err := sql.Open("tetsql", writeIntFile(t, intCases))
	if err != nil {
		t.Fatal(err)
	}
	defer ints.Close()
	tests := []struct {
		db   *sql.DB
		q    string
		fast bool
	}{
		{demo, "SELECT * FROM temperature", true},
		{demo, "SELECT value, time_label, station FROM temperature WHERE time BETWEEN 3 AND 300", true},
		{demo, "SELECT * FROM pressure WHERE lat < 3 AND lon_label >= 100", true},
		{demo, "SELECT * FROM elevation", true},
		{demo, "SELECT * FROM location", true},
		{demo, "SELECT * FROM temperature WHERE station_label = 'Nuuk'", false},
		{demo, "SELECT value + 1 AS v FROM temperature", false},
		{ints, "SELECT * FROM u64", true},
		{ints, "SELECT * FROM i64", true},
		{ints, "SELECT value, i FROM i16", true},
		{ints, "SELECT * FROM u8 WHERE value > 1", true},
		{ints, "SELECT * FROM u32", true},
	}
	for _, tc := range tests {
		for _, format := range arrowFormats {
			for _, batch := range []int{0, 5000} {
				opts := tetsql.ArrowOptions{BatchRows: batch}
				b, n, took, err := exportArrowQuery(t, tc.db, tc.q, format.file, opts)
				if err != nil {
					t.Fatalf("%s (%s): %v", tc.q, format.name, err)
				}
				if took != tc.fast {
					t.Errorf("%s: fast path taken: %v, want %v", tc.q, took, tc.fast)
				}
				slow, sn, err := exportArrow(t, tc.db, tc.q, format.file, opts)
				if strings.Contains(tc.q, "u64") { // values above 2^63-1: rounded REALs in SQL
					if !errors.Is(err, tetsql.ErrArrowType) {
						t.Errorf("%s: ordinary path: %v, want ErrArrowType", tc.q, err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if n != sn || n == 0 || !bytes.Equal(b, slow) {
					t.Errorf("%s (%s, batches of %d): %d rows, %d bytes; the ordinary path %d rows, %d bytes, not the same",
						tc.q, format.name, batch, n, len(b), sn, len(slow))
				}
			}
		}
	}
}

// TestExportArrowFastU64Max: a u64 within 1024 of 2^64-1 reads as the
// REAL 2^64 in SQL, which the ordinary path refuses; the fast path reads
// the file's bits and exports it exactly.
func TestExportArrowFastU64Max(t *testing.T) {
	db, err := sql.Open("tetsql", writeIntFile(t, []intCase{{name: "u64", dt: tetcore.U64, vals: []uint64{math.MaxUint64, 1, math.MaxUint64 - 1000}}}))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, n, took, err := exportArrowQuery(t, db, "SELECT value FROM u64", false, tetsql.ArrowOptions{})
	if err != nil || n != 3 || !took {
		t.Fatalf("n=%d fast=%v err=%v", n, took, err)
	}
	_, recs := readArrow(t, b, false)
	got := recs[0].Column(0).(*array.Uint64).Uint64Values()
	if len(got) != 3 || got[0] != math.MaxUint64 || got[1] != 1 || got[2] != math.MaxUint64-1000 {
		t.Errorf("values %v", got)
	}
	if _, _, err := exportArrow(t, db, "SELECT value FROM u64", false, tetsql.ArrowOptions{}); !errors.Is(err, tetsql.ErrArrowType) {
		t.Errorf("ordinary path: %v, want ErrArrowType", err)
	}
}

// TestExportArrowFastLimits: max_rows holds on the fast path, and a
// stream it fails part way is cut so that readers fail.
func TestExportArrowFastLimits(t *testing.T) {
	db, err := sql.Open("tetsql", "testdata/demo.tet?max_rows=1000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, _, took, err := exportArrowQuery(t, db, "SELECT * FROM temperature", false, tetsql.ArrowOptions{BatchRows: 100})
	if !errors.Is(err, tetsql.ErrMaxRows) || !took {
		t.Fatalf("err %v (fast path %v), want ErrMaxRows on the fast path", err, took)
	}
	r, err := ipc.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	for r.Next() {
	}
	if r.Err() == nil {
		t.Error("the stream of a failed export reads cleanly")
	}
}
