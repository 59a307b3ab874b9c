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

// rev3Labels are the label axes of the differential dataset: unsorted,
// with labels that repeat far apart, numbers written as TEXT, and an
// axis of unique sorted labels.
var rev3Labels = [][]string{
	{"b", "a", "c", "a", "d", "b", "e", "a", "z"},
	{"x", "y", "x", "01", "1", "w", "y"},
	{"k0", "k1", "k2", "k3", "k4"},
}

// rev3InList returns a random IN right-hand side for label axis a.
func rev3InList(rng *rand.Rand, a int) string {
	if rng.IntN(8) == 0 {
		return fmt.Sprintf("(SELECT s FROM lab%d WHERE rowid %% %d = %d)", a, 2+rng.IntN(3), rng.IntN(2))
	}
	n := rng.IntN(7)
	var vals []string
	for range n {
		switch r := rng.IntN(20); {
		case r == 0:
			vals = append(vals, "NULL")
		case r == 1:
			vals = append(vals, "1")
		case r == 2:
			vals = append(vals, "'nope'")
		case r == 3:
			vals = append(vals, "x'61'")
		case r == 4:
			vals = append(vals, "1.0")
		default:
			l := rev3Labels[a]
			vals = append(vals, "'"+l[rng.IntN(len(l))]+"'")
		}
	}
	return "(" + strings.Join(vals, ", ") + ")"
}

// rev3Where returns a random WHERE clause with at least one IN list on a
// TEXT label column.
func rev3Where(rng *rand.Rand) string {
	var terms []string
	axes := rng.Perm(3)[:1+rng.IntN(3)]
	for _, a := range axes {
		col := []string{"i_label", "j_label", "k_label"}[a]
		terms = append(terms, col+" IN "+rev3InList(rng, a))
	}
	extra := []string{
		"i >= 2", "i < 7", "j BETWEEN 1 AND 5", "k = 3", "k > 0", "j != 2",
		"value > 40", "value <= 200", "value BETWEEN 30 AND 150", "value < 'abc'",
		"v.rowid > 50", "v.rowid BETWEEN 20 AND 250", "v.rowid = 77",
		"i_label = 'a'", "j_label > 'w'", "k_label IN ('k1') ", "i_label NOT IN ('a')",
		"(i = 1 OR j = 3)", "i IN (0, 3, 7)",
	}
	for range rng.IntN(3) {
		terms = append(terms, extra[rng.IntN(len(extra))])
	}
	rng.Shuffle(len(terms), func(x, y int) { terms[x], terms[y] = terms[y], terms[x] })
	return strings.Join(terms, " AND ")
}

// TestRev3_inDifferential: random queries with IN lists on TEXT label
// columns (repeating and unsorted labels, several lists, NULLs, numbers,
// BLOBs, subqueries) combined with dim, value and rowid terms, in many
// query shapes, give the answer of a native table holding the same rows.
func TestRev3_inDifferential(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.tet")
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{9, 7, 5}, ChunkShape: []int64{2, 3, 2}, Codec: tetcore.CodecZstd,
		DimNames: []string{"i", "j", "k"}, Labels: rev3Labels}
	writeTet(t, p, spec, func(n int) float32 { return float32((n * 37) % 311) })
	db, _ := openDB(t, map[string]string{"one": p})
	mustExec(t, db, "CREATE TABLE nat(i INTEGER, j INTEGER, k INTEGER, i_label TEXT, j_label TEXT, k_label TEXT, value FLOAT)")
	mustExec(t, db, "INSERT INTO nat(rowid, i, j, k, i_label, j_label, k_label, value) SELECT v.rowid, * FROM one.v")
	if got := rowsOf(t, db, "SELECT count(*) FROM nat"); got[0] != "315" {
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
		"SELECT count(*), sum(value), min(v.rowid), max(v.rowid) FROM %[1]s v WHERE %[2]s",
		"SELECT v.rowid, i, j, k, i_label, j_label, k_label, value FROM %[1]s v WHERE %[2]s ORDER BY v.rowid",
		"SELECT v.rowid, value FROM %[1]s v WHERE %[2]s ORDER BY i, j, k LIMIT 7 OFFSET 3",
		"SELECT v.rowid, value FROM %[1]s v WHERE %[2]s ORDER BY i DESC, j DESC, k DESC LIMIT 5",
		"SELECT v.rowid, value FROM %[1]s v WHERE %[2]s ORDER BY v.rowid DESC LIMIT 4 OFFSET 1",
		"SELECT value, v.rowid FROM %[1]s v WHERE %[2]s ORDER BY value, v.rowid LIMIT 6",
		"SELECT value FROM %[1]s v WHERE %[2]s ORDER BY value DESC LIMIT 3 OFFSET 2",
		"SELECT count(*) FROM (SELECT value FROM %[1]s v WHERE %[2]s LIMIT 5)",
		"SELECT count(*) FROM (SELECT value FROM %[1]s v WHERE %[2]s LIMIT 5 OFFSET 4)",
		"SELECT i_label, count(*), sum(value) FROM %[1]s v WHERE %[2]s GROUP BY i_label ORDER BY 1",
		"SELECT i, j, count(*) FROM %[1]s v WHERE %[2]s GROUP BY i, j ORDER BY i, j",
		"SELECT DISTINCT j_label FROM %[1]s v WHERE %[2]s ORDER BY 1",
		"SELECT DISTINCT i FROM %[1]s v WHERE %[2]s ORDER BY 1",
		"SELECT o.n, count(v.value), sum(v.value) FROM outer_t o LEFT JOIN %[1]s v ON v.i_label = o.s AND %[2]s GROUP BY o.n ORDER BY o.n",
		"SELECT o.n, (SELECT sum(value) FROM %[1]s v WHERE v.i = o.n AND %[2]s) FROM outer_t o ORDER BY o.n",
		"SELECT o.n, (SELECT count(*) FROM %[1]s v WHERE v.i_label IN (o.s, 'e') AND %[2]s) FROM outer_t o ORDER BY o.n",
		"SELECT min(value), max(value), avg(value) FROM %[1]s v WHERE %[2]s",
	}
	rng := rand.New(rand.NewPCG(3, 33))
	bad := 0
	for range rev3Iters() {
		where := rev3Where(rng)
		shape := shapes[rng.IntN(len(shapes))]
		want, werr := tryRows(db, fmt.Sprintf(shape, "nat", where))
		if werr != nil {
			t.Fatalf("native: %s: %v", fmt.Sprintf(shape, "nat", where), werr)
		}
		got, err := tryRows(db, fmt.Sprintf(shape, "one.v", where))
		if err != nil || !sameRows(got, want) {
			if bad++; bad <= 20 {
				t.Errorf("%s\n cells %v (err %v)\n SQLite %v", fmt.Sprintf(shape, "one.v", where), got, err, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d mismatches", bad)
	}
}

// rev3Iters is the number of random queries (TETSQL_REV3_ITERS, else 1500).
func rev3Iters() int {
	var n int
	if _, err := fmt.Sscan(os.Getenv("TETSQL_REV3_ITERS"), &n); err == nil && n > 0 {
		return n
	}
	return 1500
}
