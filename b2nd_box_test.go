package tetsql_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
)

// TestB2ND_blockPruning: a .b2nd chunk read for a thin selection decodes
// only the blocks the selection touches. Cells scans and _agg folds with
// dim constraints (read in part) answer exactly as the same queries with
// the constraints hidden from the planner (+dim: whole chunks), value
// terms (which summarise whole chunks, never partial reads) included
// after partial reads, and a point query decodes less than its chunk.
func TestB2ND_blockPruning(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file, table string
	}{
		{"b2nd/testdata/blosclz_many_blocks.b2nd", "blosclz_many_blocks"}, // 64 blocks per chunk
		{"b2nd/testdata/zstd_dict.b2nd", "zstd_dict"},                     // a dictionary
		{"b2nd/testdata/grid_25_chunks.b2nd", "grid_25_chunks"},           // bytedelta
		{"b2nd/testdata/filter_delta.b2nd", "filter_delta"},               // blocks need block 0
	} {
		t.Run(tc.table, func(t *testing.T) {
			_, conn := openConn(t, tc.file)
			ctx := context.Background()
			var n0, n1 int64
			if err := conn.QueryRowContext(ctx, "SELECT max(d0)+1, max(d1)+1 FROM "+tc.table+"_agg('d0,d1')").Scan(&n0, &n1); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(n0), uint64(n1)))
			for trial := 0; trial < 30; trial++ {
				a, b := rng.Int64N(n0), rng.Int64N(n1)
				a2, b2 := min(n0-1, a+rng.Int64N(4)), min(n1-1, b+rng.Int64N(9))
				where := fmt.Sprintf("d0 BETWEEN %d AND %d AND d1 BETWEEN %d AND %d", a, a2, b, b2)
				hidden := fmt.Sprintf("+d0 BETWEEN %d AND %d AND +d1 BETWEEN %d AND %d", a, a2, b, b2)
				for _, q := range []string{
					"SELECT group_concat(d0 || ',' || d1 || '=' || value, ' ') FROM (SELECT * FROM %s WHERE %s ORDER BY d0, d1)",
					"SELECT count(*), sum(value), min(value), max(value) FROM %s WHERE %s",
					"SELECT count(*), sum(value) FROM %s WHERE %s AND value > 50",
					"SELECT count(*), sum(value) FROM %s WHERE %s AND value <= 50",
				} {
					got := oneRow(t, conn, fmt.Sprintf(q, tc.table, where))
					want := oneRow(t, conn, fmt.Sprintf(q, tc.table, hidden))
					if got != want {
						t.Fatalf("%s: %s, want %s", fmt.Sprintf(q, tc.table, where), got, want)
					}
				}
				agg := fmt.Sprintf("SELECT count, sum, min, max FROM %s_agg WHERE %s", tc.table, where)
				cells := fmt.Sprintf("SELECT count(*), sum(value), min(value), max(value) FROM %s WHERE %s", tc.table, hidden)
				if got, want := oneRow(t, conn, agg), oneRow(t, conn, cells); got != want {
					t.Fatalf("%s: %s, want %s", agg, got, want)
				}
			}
		})
	}
	// The byte counts below hold for a file no other test's connection has
	// open (whose decoded-chunk cache would serve the chunks): private
	// copies, under the fixtures' names.
	dir := t.TempDir()
	_, conn := openConn(t, copyFile(t, "b2nd/testdata/blosclz_many_blocks.b2nd", dir)+"?agg_rewrite=false")
	ctx := context.Background()
	var v float64
	if err := conn.QueryRowContext(ctx, "SELECT value FROM blosclz_many_blocks WHERE d0 = 5 AND d1 = 7").Scan(&v); err != nil {
		t.Fatal(err)
	}
	scans, err := tetsql.Scans(ctx, conn)
	chunk := int64(64 * 128 * 8)
	if err != nil || len(scans) != 1 || scans[0].ChunksDecoded != 1 || scans[0].BytesDecoded <= 0 || scans[0].BytesDecoded >= chunk/8 {
		t.Fatalf("point query: %+v %v; want one chunk read, under %d bytes decoded", scans, err, chunk/8)
	}
	// A column through five chunks (40×60, blocks 10×20), read ahead by
	// workers: each decodes the 4 blocks of 12 that the column meets.
	_, conn = openConn(t, copyFile(t, "b2nd/testdata/grid_25_chunks.b2nd", dir)+"?agg_rewrite=false&read_ahead=4")
	rows := queryRows(t, conn, "SELECT value FROM grid_25_chunks WHERE d1 = 7", 200)
	scans, err = tetsql.Scans(ctx, conn)
	want := int64(5 * 4 * 10 * 20 * 4)
	if err != nil || len(rows) != 200 || len(scans) != 1 || scans[0].ChunksDecoded != 5 || scans[0].BytesDecoded != want {
		t.Fatalf("column query: %d rows, %+v %v; want 5 chunks read, %d bytes decoded", len(rows), scans, err, want)
	}
}

// oneRow runs q and returns its one row as text.
func oneRow(t *testing.T, conn *sql.Conn, q string) string {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	if !rows.Next() {
		t.Fatalf("%s: no row (%v)", q, rows.Err())
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(vals...)
}

// TestB2ND_paddedChunkLimit: a 9 KB file of 3 elements whose one chunk
// is declared 260,000,000 elements long decodes 2 GB to read them. The
// chunk limit applies to that (ChunkInfo.DecodeBytes), not to the 24
// bytes of the elements: refused under the default limit, naming the
// option, and read once the limit allows it.
func TestB2ND_paddedChunkLimit(t *testing.T) {
	t.Parallel()
	_, conn := openConn(t, "b2nd/testdata/huge_padded_chunk.b2nd")
	var n int
	err := conn.QueryRowContext(context.Background(), "SELECT count(*) FROM huge_padded_chunk WHERE d0 = 1").Scan(&n)
	if err == nil || !strings.Contains(err.Error(), "max_chunk_bytes") || !strings.Contains(err.Error(), "2080374784 bytes") {
		t.Fatalf("count: %d, %v; want the chunk refused under the default limit", n, err)
	}
	var meta int64
	if err := conn.QueryRowContext(context.Background(), "SELECT raw_byte_len FROM tet_chunks").Scan(&meta); err != nil || meta != 24 {
		t.Fatalf("tet_chunks.raw_byte_len %d, %v; want 24", meta, err)
	}
}
