package vtab_test

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// revFile is one file of a hand-made tree: its path under the tree and
// the hive values a reader must show for it (nil: NULL).
type revFile struct {
	rel  string
	days int
	lats []string // lat labels
	hive map[string]*string
}

func sp(s string) *string { return &s }

// revTree writes files of dataset t2m (time, lat, lon) with differing
// shapes and labels, and a native table holding their union with the
// given hive columns.
func revTree(t *testing.T, files []revFile, keys []string) (*sql.DB, *vtab.Session, string) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	db, sess := openDB(t, nil)
	cols := "file TEXT"
	for _, k := range keys {
		cols += ", " + k + " TEXT"
	}
	mustExec(t, db, `CREATE TABLE main.native(`+cols+`, time INTEGER, lat INTEGER, lon INTEGER, time_label TEXT, lat_label INTEGER, value FLOAT)`)
	for fi, f := range files {
		p := filepath.Join(dir, f.rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		var times []string
		for d := range f.days {
			times = append(times, fmt.Sprintf("f%d-d%02d", fi, d))
		}
		spec := tetcore.DatasetSpec{Name: "t2m", DType: tetcore.F32, Shape: []int64{int64(f.days), int64(len(f.lats)), 3},
			ChunkShape: []int64{int64(1 + fi%4), 2, 3}, Codec: tetcore.CodecZstd, DimNames: []string{"time", "lat", "lon"},
			Labels: [][]string{times, f.lats, nil}}
		writeTet(t, p, spec, func(i int) float32 { return float32(rng.IntN(2000)-1000) / 8 })
		h, err := sess.Registry.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range vtab.SetupSQL("one", p, h.Source(), sess) {
			mustExec(t, db, s)
		}
		h.Close()
		args := []any{dir + "/" + f.rel}
		sel := "?"
		for _, k := range keys {
			sel += ", ?"
			if v := f.hive[k]; v != nil {
				args = append(args, *v)
			} else {
				args = append(args, nil)
			}
		}
		mustExec(t, db, `INSERT INTO main.native SELECT `+sel+`, time, lat, lon, time_label, lat_label, value FROM one.t2m`, args...)
		mustExec(t, db, `DETACH DATABASE one`)
	}
	return db, sess, dir
}

// TestRev_hiveKeysMissingAndReordered: paths lacking a key, keys in
// another order, keys differing in case, empty values; files of
// different shapes and labels.
func TestRev_hiveKeysMissingAndReordered(t *testing.T) {
	files := []revFile{
		{"a=1/b=x/f.tet", 5, []string{"10", "20"}, map[string]*string{"a": sp("1"), "b": sp("x")}},
		{"a=2/f.tet", 3, []string{"10", "20", "30"}, map[string]*string{"a": sp("2")}},
		{"b=y/a=3/f.tet", 4, []string{"20", "10"}, map[string]*string{"a": sp("3"), "b": sp("y")}},
		{"c=z/a=4/f.tet", 2, []string{"10", "20"}, map[string]*string{"a": sp("4")}},
		{"plain/f.tet", 6, []string{"30", "20"}, map[string]*string{}},
		{"a=10/b=/f.tet", 1, []string{"10", "20"}, map[string]*string{"a": sp("10"), "b": sp("")}},
	}
	db, _, dir := revTree(t, files, []string{"a", "b"})
	glob := dir + "/**/*.tet"
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE main.m USING tet_many('%s', 't2m')`, glob))
	mustExec(t, db, fmt.Sprintf(`CREATE VIRTUAL TABLE main.m_agg USING tet_many('%s', 't2m', 'kind=agg')`, glob))
	cols := rowsOf(t, db, `SELECT group_concat(name, ',') FROM pragma_table_info('m')`)
	if len(cols) != 1 || cols[0] != "file,a,b,c,time,lat,lon,time_label,lat_label,value" {
		t.Errorf("columns %v", cols)
	}
	pairs := []struct{ many, native string }{
		{`SELECT a, b, count(*), sum(value) FROM m GROUP BY a, b ORDER BY a, b`, ``},
		{`SELECT count(*), sum(value) FROM m WHERE b IS NULL`, ``},
		{`SELECT count(*), sum(value) FROM m WHERE b = ''`, ``},
		{`SELECT count(*), sum(value) FROM m WHERE a > '1'`, ``},
		{`SELECT count(*), sum(value) FROM m WHERE a >= 2`, ``},
		{`SELECT count(*), sum(value) FROM m WHERE a IN ('1', '3', '10')`, ``},
		{`SELECT count(*), sum(value) FROM m WHERE b IS NOT 'x'`, ``},
		{`SELECT count(*), sum(value) FROM m WHERE b <> 'x'`, ``},
		{`SELECT lat_label, count(*), sum(value) FROM m GROUP BY lat_label ORDER BY 1`, ``},
		{`SELECT count(*), sum(value) FROM m WHERE lat_label = 30`, ``},
		{`SELECT count(*), sum(value) FROM m WHERE lat_label IN (20, 30) AND time > 1`, ``},
		{`SELECT count(*), sum(value) FROM m WHERE lat = 2`, ``},
		{`SELECT a, b, count, sum FROM m_agg WHERE by = 'a,b'`, `SELECT a, b, count(value), sum(value) FROM native GROUP BY a, b ORDER BY a, b`},
		{`SELECT b, count, sum FROM m_agg WHERE by = 'b'`, `SELECT b, count(value), sum(value) FROM native GROUP BY b ORDER BY b`},
		{`SELECT count, sum FROM m_agg WHERE b IS NULL`, `SELECT count(value), sum(value) FROM native WHERE b IS NULL`},
		{`SELECT count, sum FROM m_agg WHERE b IS 'x'`, `SELECT count(value), sum(value) FROM native WHERE b IS 'x'`},
		{`SELECT count, sum FROM m_agg WHERE b IS NOT 'x'`, `SELECT count(value), sum(value) FROM native WHERE b IS NOT 'x'`},
		{`SELECT count, sum FROM m_agg WHERE a IN ('1', '3', '10')`, `SELECT count(value), sum(value) FROM native WHERE a IN ('1', '3', '10')`},
		{`SELECT lat, count, sum FROM m_agg WHERE by = 'lat'`, `SELECT lat, count(value), sum(value) FROM native GROUP BY lat ORDER BY lat`},
		{`SELECT lat, lat_label, count, sum FROM m_agg WHERE by = 'lat' AND a = '2'`, `SELECT lat, lat_label, count(value), sum(value) FROM native WHERE a = '2' GROUP BY lat ORDER BY lat`},
		{`SELECT count, sum FROM m_agg WHERE lat_label = 30`, `SELECT count(value), sum(value) FROM native WHERE lat_label = 30`},
		{`SELECT count, sum FROM m_agg WHERE lat_label IN (20, 30)`, `SELECT count(value), sum(value) FROM native WHERE lat_label IN (20, 30)`},
		{`SELECT count, sum FROM m_agg WHERE lat_label > 15`, `SELECT count(value), sum(value) FROM native WHERE lat_label > 15`},
		{`SELECT count, sum FROM m_agg WHERE lat = 2`, `SELECT count(value), sum(value) FROM native WHERE lat = 2`},
		{`SELECT count, sum FROM m_agg WHERE time = 5`, `SELECT count(value), sum(value) FROM native WHERE time = 5`},
		{`SELECT count, sum FROM m_agg WHERE time_label = 'f2-d03'`, `SELECT count(value), sum(value) FROM native WHERE time_label = 'f2-d03'`},
	}
	for _, p := range pairs {
		native := p.native
		if native == "" {
			native = strings.ReplaceAll(p.many, "FROM m ", "FROM native ")
		}
		got, want := rowsOf(t, db, p.many), rowsOf(t, db, native)
		// Aggregate rows come in file order: compare as sets.
		slices.Sort(got)
		slices.Sort(want)
		if !sameRows(got, want) {
			t.Errorf("%s\n got %v\nwant %v", p.many, trim(got), trim(want))
		}
	}
}
