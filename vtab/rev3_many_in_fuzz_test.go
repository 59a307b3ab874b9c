package vtab_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestRev3_manyInDifferential: the random queries of
// TestRev3_inDifferential over a tet_many table of three files (same
// shape, other values), compared with a native union of the files'
// rows, with terms on the hive column too.
func TestRev3_manyInDifferential(t *testing.T) {
	dir := t.TempDir()
	for f := range 3 {
		sub := filepath.Join(dir, fmt.Sprintf("f=%d", f))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{9, 7, 5}, ChunkShape: []int64{2, 3, 2}, Codec: tetcore.CodecZstd,
			DimNames: []string{"i", "j", "k"}, Labels: rev3Labels}
		writeTet(t, filepath.Join(sub, "a.tet"), spec, func(n int) float32 { return float32((n*37 + 101*f) % 311) })
	}
	db, _ := openDB(t, nil)
	mustExec(t, db, fmt.Sprintf("CREATE VIRTUAL TABLE main.m USING tet_many('%s/*/a.tet', 'v')", dir))
	mustExec(t, db, "CREATE TABLE nat(f TEXT, i INTEGER, j INTEGER, k INTEGER, i_label TEXT, j_label TEXT, k_label TEXT, value FLOAT)")
	mustExec(t, db, "INSERT INTO nat SELECT f, i, j, k, i_label, j_label, k_label, value FROM m")
	if got := rowsOf(t, db, "SELECT count(*) FROM nat"); got[0] != "945" {
		t.Fatalf("native copy: %v", got)
	}
	for a, l := range rev3Labels {
		mustExec(t, db, fmt.Sprintf("CREATE TABLE lab%d(s TEXT)", a))
		for _, s := range l {
			mustExec(t, db, fmt.Sprintf("INSERT INTO lab%d VALUES (?)", a), s)
		}
	}
	mustExec(t, db, "CREATE TABLE outer_t(n INTEGER, s TEXT)")
	mustExec(t, db, "INSERT INTO outer_t VALUES (0, 'a'), (1, 'b'), (2, 'z'), (3, 'q'), (4, NULL), (5, 'a')")
	shapes := []string{
		"SELECT count(*), sum(value) FROM %[1]s v WHERE %[2]s",
		"SELECT f, i, j, k, i_label, j_label, k_label, value FROM %[1]s v WHERE %[2]s ORDER BY f, i, j, k",
		"SELECT f, i, j, k, value FROM %[1]s v WHERE %[2]s ORDER BY f, i, j, k LIMIT 7 OFFSET 3",
		"SELECT value, f, i, j, k FROM %[1]s v WHERE %[2]s ORDER BY value, f, i, j, k LIMIT 6",
		"SELECT count(*) FROM (SELECT value FROM %[1]s v WHERE %[2]s LIMIT 5 OFFSET 4)",
		"SELECT f, i_label, count(*), sum(value) FROM %[1]s v WHERE %[2]s GROUP BY f, i_label ORDER BY 1, 2",
		"SELECT DISTINCT j_label FROM %[1]s v WHERE %[2]s ORDER BY 1",
		"SELECT o.n, count(v.value), sum(v.value) FROM outer_t o LEFT JOIN %[1]s v ON v.i_label = o.s AND %[2]s GROUP BY o.n ORDER BY o.n",
		"SELECT o.n, (SELECT count(*) FROM %[1]s v WHERE v.i_label IN (o.s, 'e') AND %[2]s) FROM outer_t o ORDER BY o.n",
	}
	hive := []string{"f = '1'", "f IN ('0', '2')", "f > '0'", "f IN ('0', 1)"}
	rng := rand.New(rand.NewPCG(5, 55))
	bad := 0
	for range rev3Iters() / 3 {
		where := rev3Where(rng)
		if strings.Contains(where, "rowid") {
			continue // rowids differ: file index << shift
		}
		if rng.IntN(3) == 0 {
			where += " AND " + hive[rng.IntN(len(hive))]
		}
		shape := shapes[rng.IntN(len(shapes))]
		want, werr := tryRows(db, fmt.Sprintf(shape, "nat", where))
		if werr != nil {
			t.Fatalf("native: %s: %v", fmt.Sprintf(shape, "nat", where), werr)
		}
		got, err := tryRows(db, fmt.Sprintf(shape, "m", where))
		if err != nil || !sameRows(got, want) {
			if bad++; bad <= 20 {
				t.Errorf("%s\n many %v (err %v)\n SQLite %v", fmt.Sprintf(shape, "m", where), got, err, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d mismatches", bad)
	}
}
