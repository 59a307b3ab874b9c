package vtab_test

import (
	"database/sql"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// writeHugeSparse writes a file of a few hundred bytes whose u8 dataset
// "big" declares a 1-D axis of 2^40 elements in chunks of one, of which
// only 8 are in the index: at 0..6 (values 1..7) and at 2^40-1 (value 8).
func writeHugeSparse(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "huge.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "big", DType: tetcore.U8, Shape: []int64{8}, ChunkShape: []int64{1}}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteDataset([]byte{1, 2, 3, 4, 5, 6, 7, 8}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The directory record of "big": 40-byte superblock and length, a
	// 16-byte record header, the name padded to 8, then shape[0].
	const shapeAt = 40 + 16 + 8
	if binary.LittleEndian.Uint64(raw[shapeAt:]) != 8 {
		t.Fatalf("shape not at %d", shapeAt)
	}
	binary.LittleEndian.PutUint64(raw[shapeAt:], 1<<40)
	// The index: 32-byte header, then 104-byte entries whose grid
	// coordinates start at byte 8; move the last chunk to the far end.
	idx := binary.LittleEndian.Uint64(raw[16:])
	last := idx + 32 + 7*104 + 8
	if binary.LittleEndian.Uint64(raw[last:]) != 7 {
		t.Fatalf("entry 7 not at %d", last)
	}
	binary.LittleEndian.PutUint64(raw[last:], 1<<40-1)
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := tetcore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ds := f.Datasets[0]; ds.Shape[0] != 1<<40 || len(ds.Chunks()) != 8 {
		t.Fatalf("crafted file: shape %v, %d chunks", ds.Shape, len(ds.Chunks()))
	}
	return path
}

// allocDuring returns the bytes Go allocated while fn ran.
func allocDuring(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// errText is err's message plus the error the session kept (the tetsql
// driver reports a session's error too).
func errText(err error, sess *vtab.Session) string {
	if serr := sess.TakeError(); serr != nil {
		return err.Error() + " / " + serr.Error()
	}
	return err.Error()
}

// queryErr runs q and returns its error (nil if it succeeded).
func queryErr(db *sql.DB, q string) error {
	rows, err := db.Query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

func TestMemLimit_hugeSparseGridFailsSmall(t *testing.T) {
	path := writeHugeSparse(t)
	db, sess := openDB(t, map[string]string{"h": path})
	for _, tc := range []struct{ q, want string }{
		// 2^40 groups of ~112 bytes: refused before allocating them.
		{"SELECT count FROM h.big_agg('d0')", "tet: h.big_agg: grouping needs 112.0 TiB for 1099511627776 groups, above the memory limit of 1.0 GiB (DSN option mem_limit, shell --mem-limit)"},
		{"SELECT d0, count FROM h.big_agg WHERE by = 'd0' AND d0 >= 1000", "grouping needs"},
		{"SELECT count FROM h.big_agg('d0/3')", "grouping needs 37.3 TiB for 366503875926 groups"},
		{"SELECT median FROM h.big_agg('d0/3')", "grouping needs"},
		// Ungrouped: the plan covers 2^40 chunk positions, the index 8.
		{"SELECT count FROM h.big_agg", `tet: h.big_agg: dataset "big" chunk [7]: chunk not present in index`},
		{"SELECT count FROM h.big_agg WHERE d0 < 4000000", "chunk [7]: chunk not present in index"},
		{"SELECT count FROM h.big_agg WHERE d0 IN (1, 2, 1000000000000)", "chunk [1000000000000]: chunk not present in index"},
		{"SELECT count FROM h.big_agg('d0') WHERE d0 IN (1, 2, 1000000000000)", "chunk [1000000000000]: chunk not present in index"},
		{"SELECT count(*) FROM h.big", "chunk [7]: chunk not present in index"},
	} {
		var err error
		sess.TakeError()
		n := allocDuring(func() { err = queryErr(db, tc.q) })
		if err == nil || !strings.Contains(errText(err, sess), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.q, err, tc.want)
		}
		if n > 1<<20 {
			t.Errorf("%s: allocated %d bytes before failing", tc.q, n)
		}
		// The connection still answers, from the chunks that exist.
		var sum, groups int64
		if err := db.QueryRow("SELECT sum(sum), count(*) FROM h.big_agg('d0') WHERE d0 < 7").Scan(&sum, &groups); err != nil || sum != 28 || groups != 7 {
			t.Fatalf("after %s: sum %d over %d groups, %v; want 28 over 7", tc.q, sum, groups, err)
		}
	}
}

// TestMemLimit_hugeSparseGridFarSelection: an IN list whose hull spans
// the whole 2^40 grid but selects only chunks the index holds folds just
// those (the fold used to list every chunk of the hull).
func TestMemLimit_hugeSparseGridFarSelection(t *testing.T) {
	db, _ := openDB(t, map[string]string{"h": writeHugeSparse(t)})
	var got []string
	n := allocDuring(func() {
		got = rowsOf(t, db, "SELECT d0, count, sum FROM h.big_agg('d0') WHERE d0 IN (0, 6, 1099511627775) ORDER BY d0")
	})
	if want := "0|1|1 6|1|7 1099511627775|1|8"; strings.Join(got, " ") != want {
		t.Fatalf("got %v, want %s", got, want)
	}
	if got := rowsOf(t, db, "SELECT sum(count), sum(sum) FROM h.big_agg WHERE d0 IN (0, 6, 1099511627775)"); got[0] != "3|16" {
		t.Fatalf("ungrouped: %v", got)
	}
	if n > 1<<20 {
		t.Errorf("allocated %d bytes", n)
	}
}

func TestMemLimit_sessionLimitAppliesToGroups(t *testing.T) {
	db, sess := openDB(t, map[string]string{"st": writeStations(t)})
	q := "SELECT time, station, count, sum FROM st.temp_agg('time,station') ORDER BY time, station"
	want := rowsOf(t, db, "SELECT time, station, count(*), sum(value) FROM st.temp GROUP BY time, station ORDER BY time, station")
	if len(want) != 150 {
		t.Fatalf("%d native groups", len(want))
	}
	for _, limit := range []int64{0, 150*112 + 4096, 1 << 40} {
		sess.MemLimit = limit // 150*112+…: one set of groups, not one per worker
		if got := rowsOf(t, db, q); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("limit %d: got %v\nwant %v", limit, got, want)
		}
	}
	sess.MemLimit = 4 << 10
	err := queryErr(db, q)
	if err == nil || !strings.Contains(err.Error(), "grouping needs 16.4 KiB for 150 groups, above the memory limit of 4.0 KiB") {
		t.Fatalf("4 KiB limit: %v", err)
	}
	if got := rowsOf(t, db, "SELECT count FROM st.temp_agg('station')"); len(got) != 5 {
		t.Fatalf("5 groups under 4 KiB: %v", got)
	}
}

func TestMemLimit_metadataRows(t *testing.T) {
	db, sess := openDB(t, map[string]string{"st": writeStations(t)})
	// temp: 30×5 in 7×2 chunks = 5×3; elev: 5 in 2s = 3.
	if got := rowsOf(t, db, "SELECT count(*) FROM st.tet_chunks"); got[0] != "18" {
		t.Fatalf("tet_chunks: %v", got)
	}
	sess.MemLimit = 1 << 10
	for _, q := range []string{"SELECT count(*) FROM st.tet_chunks", "SELECT count(*) FROM st.tet_coords"} {
		sess.TakeError()
		err := queryErr(db, q)
		if err == nil || !strings.Contains(errText(err, sess), "listing needs") || !strings.Contains(errText(err, sess), "rows, above the memory limit of 1.0 KiB") {
			t.Errorf("%s under 1 KiB: %v", q, err)
		}
	}
	if got := rowsOf(t, db, "SELECT count(*) FROM st.tet_chunks WHERE dataset = 'elev'"); got[0] != "3" {
		t.Fatalf("3 rows under 1 KiB: %v", got)
	}
}

// TestMemLimit_inList: the binding copies an IN list whole for an
// aggregate; a list from a subquery counts against the memory limit.
func TestMemLimit_inList(t *testing.T) {
	db, sess := openDB(t, map[string]string{"st": writeStations(t)})
	q := "WITH RECURSIVE s(x) AS (SELECT 0 UNION ALL SELECT x+1 FROM s WHERE x < 199999) " +
		"SELECT count FROM st.temp_agg WHERE time IN (SELECT x FROM s)"
	if got := rowsOf(t, db, q); len(got) != 1 || got[0] != "150" {
		t.Fatalf("IN 200000 values: %d rows, first %v", len(got), got[:min(len(got), 1)])
	}
	sess.MemLimit = 2 << 20
	sess.TakeError()
	err := queryErr(db, q)
	if err == nil || !strings.Contains(errText(err, sess), "reading the IN list needs") || !strings.Contains(errText(err, sess), "values so far, above the memory limit of 2.0 MiB") {
		t.Fatalf("IN list under 2 MiB: %v", err)
	}
}

// TestMemLimit_sharedByTheTablesOfAStatement: the limit bounds what the
// open tables of a connection hold together, not each table alone: a
// join of two aggregates that each fit fails when both together do not,
// and what they held is given back when the statement ends.
func TestMemLimit_sharedByTheTablesOfAStatement(t *testing.T) {
	db, sess := openDB(t, map[string]string{"st": writeStations(t)})
	const one = "SELECT count(*) FROM st.temp_agg('time,station')"
	const join = "SELECT count(*) FROM st.temp_agg('time,station') a, st.temp_agg('time,station') b WHERE a.count > 0 AND b.count > 0"
	if got := rowsOf(t, db, join); got[0] != "22500" {
		t.Fatalf("join under the default limit: %v", got)
	}
	sess.MemLimit = 24 << 10 // one 150-group aggregate (~17 KiB) fits, two do not
	for range 3 {
		if got := rowsOf(t, db, one); got[0] != "150" {
			t.Fatalf("one aggregate: %v", got)
		}
		sess.TakeError()
		err := queryErr(db, join)
		if err == nil {
			t.Fatal("join of two aggregates above the shared limit succeeded")
		}
		if msg := errText(err, sess); !strings.Contains(msg, "above the memory limit of 24.0 KiB") || !strings.Contains(msg, "other tables of this connection's statements hold") {
			t.Fatalf("join: %v", msg)
		}
	}
}
