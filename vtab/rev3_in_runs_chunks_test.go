package vtab_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql/tetcore"
)

// TestRev3_inRunsRereadChunks: an IN list of labels that share chunks
// (every other station, 50 per chunk of 100) is scanned run by run, one
// scan per run, and each run decodes its chunk again: 500 listed labels
// in 10 chunks decode 500 chunks, where the hull (the same IN under an
// ORDER BY the table consumes) decodes 10. (The same IN on the dim also
// decodes 500: SQLite runs it one Filter per value.) Runs in one chunk
// should be one scan, or the runs passed to the scan as a set.
func TestRev3_inRunsRereadChunks(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.tet")
	names := make([]string, 1000)
	for i := range names {
		names[i] = fmt.Sprintf("s%04d", i)
	}
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{1000, 200}, ChunkShape: []int64{100, 200}, Codec: tetcore.CodecZstd,
		DimNames: []string{"station", "t"}, Labels: [][]string{names, nil}}
	writeTet(t, p, spec, func(k int) float32 { return float32(k % 1000) })
	db, sess := openDB(t, map[string]string{"one": p})
	var labs []string
	for i := 0; i < 1000; i += 2 {
		labs = append(labs, "'"+names[i]+"'")
	}
	in := "station_label IN (" + strings.Join(labs, ",") + ")"
	decoded := map[string]int64{}
	var want []string
	for _, c := range []struct{ name, q string }{
		{"runs", "SELECT count(*), sum(value) FROM (SELECT value FROM one.v WHERE " + in + ")"},
		{"hull", "SELECT count(*), sum(value) FROM (SELECT value FROM one.v WHERE " + in + " ORDER BY station, t)"},
	} {
		sess.TakeScans()
		start := time.Now()
		got := rowsOf(t, db, c.q)
		el := time.Since(start)
		if want == nil {
			want = got
		} else if !sameRows(got, want) {
			t.Errorf("%s: %v, runs gave %v", c.name, got, want)
		}
		for _, sc := range sess.TakeScans() {
			decoded[c.name] += sc.ChunksDecoded + sc.CacheHits
		}
		t.Logf("%s: %v, %d chunks read in %v", c.name, got, decoded[c.name], el)
	}
	if decoded["runs"] > decoded["hull"] {
		t.Errorf("run by run read %d chunks, the hull %d", decoded["runs"], decoded["hull"])
	}
}
