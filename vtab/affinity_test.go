package vtab_test

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// affinityArgs are right-hand sides whose comparison with INTEGER, REAL
// and TEXT columns depends on SQLite's affinity rules.
var affinityArgs = []any{
	"3", " 3", "3 ", "\t3\n", "+3", "3.0", "3.5", "-1", "1e2", "1E1", ".5e1", "5.", "0x10", "-inf", "inf", "nan",
	"1e400", "-1e400", "1e-400", "", " ", "3abc", "abc", "9223372036854775807", "9223372036854775808",
	"-9223372036854775809", "00012", "1_0", "3\u00a0", "\u00a03", "3\x00", "1e", "--3", "A03", "a03", "0.1",
	[]byte("3"), []byte{}, 2.5, -0.0, 3.0, 1e300, -1e300, math.Inf(1), math.Inf(-1), 9.3e18, -9.3e18, 1.5e19,
	int64(3), int64(-1), int64(math.MaxInt64), int64(math.MinInt64), nil, 0.1, 1.0 / 3, math.NaN(),
	1.8446744073709552e19, 9007199254740993.0, -9223372036854775808.0,
}

func TestAffinity_matchesNativeTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "aff.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	labels := []string{"0.1", "0.33333333333333331", "0.33333333333333332", "1", "100", "100.0", "2.5", "3", "3.0", "A03", "Inf", "abc"}
	specs := []tetcore.DatasetSpec{
		{Name: "i", DType: tetcore.I32, Shape: []int64{12}, ChunkShape: []int64{5}, DimNames: []string{"k"}, Labels: [][]string{labels}},
		{Name: "f", DType: tetcore.F64, Shape: []int64{12}, ChunkShape: []int64{5}, DimNames: []string{"k"}, Labels: [][]string{nil}},
	}
	ds := []diffDataset{}
	for _, sp := range specs {
		data := make([]byte, 12*sp.DType.Size())
		for j := 0; j < 12; j++ {
			if sp.DType == tetcore.I32 {
				putU32(data[4*j:], uint32(int32(j-4)))
			} else {
				putU64(data[8*j:], math.Float64bits(float64(j)/2-1))
			}
		}
		if err := w.AddDataset(sp); err != nil {
			t.Fatal(err)
		}
		ds = append(ds, diffDataset{sp, data})
	}
	for _, d := range ds {
		if err := w.WriteDataset(d.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	db, sess := openDB(t, map[string]string{"f": path})
	for _, d := range ds {
		copyNative(t, db, d)
	}
	for _, name := range []string{"i", "f"} {
		cols := []string{"k", "rowid", "value"}
		if name == "i" {
			cols = append(cols, "k_label")
		}
		for _, col := range cols {
			for _, op := range []string{"=", "<", "<=", ">", ">="} {
				for _, arg := range affinityArgs {
					q := fmt.Sprintf("SELECT rowid FROM %%s WHERE %s %s ? ORDER BY rowid", col, op)
					want := rowsOf(t, db, fmt.Sprintf(q, "main.n_"+name), arg)
					got := rowsOf(t, db, fmt.Sprintf(q, "f."+name), arg)
					if !slices.Equal(got, want) {
						t.Errorf("%s: %s %s %#v: got %v, want %v", name, col, op, arg, got, want)
					}
					if col == "rowid" || col == "value" {
						continue
					}
					// _agg selects elements by the same comparison.
					aq := fmt.Sprintf("SELECT count FROM f.%s_agg WHERE %s %s ?", name, col, op)
					nq := fmt.Sprintf("SELECT count(value) FROM main.n_%s WHERE %s %s ?", name, col, op)
					if err := queryArgErr(db, aq, arg); col == "k_label" && err != nil {
						// A number against a label is refused when its
						// answer depends on the number's affinity: it must
						// then differ between a bare number and a CAST.
						numeric := fmt.Sprintf("SELECT count(value) FROM main.n_%s WHERE %s %s CAST(? AS NUMERIC)", name, col, op)
						if !strings.Contains(errText(err, sess), "depends on the number's type affinity") ||
							slices.Equal(rowsOf(t, db, nq, arg), rowsOf(t, db, numeric, arg)) {
							t.Errorf("%s_agg: %s %s %#v: %v", name, col, op, arg, err)
						}
						continue
					}
					if got, want := rowsOf(t, db, aq, arg), rowsOf(t, db, nq, arg); strings.Join(got, ",") != strings.Join(want, ",") {
						t.Errorf("%s_agg: %s %s %#v: count %v, want %v", name, col, op, arg, got, want)
					}
				}
			}
		}
	}
}

// TestAffinity_expressions compares SQL expressions whose value is NaN
// (SQLite makes it NULL), ±Inf or an integer overflowed to REAL.
func TestAffinity_expressions(t *testing.T) {
	path, sets := makeDiffFile(t, rand.New(rand.NewPCG(4, 4)))
	db, _ := openDB(t, map[string]string{"f": path})
	s := sets[0]
	copyNative(t, db, s)
	exprs := []string{"(1e999 - 1e999)", "(1e308 * 10)", "-(1e308 * 10)", "(9223372036854775807 + 1)",
		"(-9223372036854775808 - 1)", "CAST('3' AS INTEGER)", "CAST(' 3 ' AS REAL)", "'3' || ''", "x'33'", "(0.0 / 0)"}
	k := s.spec.DimNames[0]
	for _, col := range []string{k, "rowid", "value"} {
		for _, op := range sqlOps {
			for _, e := range exprs {
				q := fmt.Sprintf("SELECT rowid FROM %%s WHERE %s %s %s ORDER BY rowid", col, op, e)
				want := rowsOf(t, db, fmt.Sprintf(q, "main.n_"+s.spec.Name))
				got := rowsOf(t, db, fmt.Sprintf(q, "f."+s.spec.Name))
				if !slices.Equal(got, want) {
					t.Errorf("%s %s %s: got %v, want %v", col, op, e, got, want)
				}
			}
		}
	}
}

func putU32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

func putU64(b []byte, v uint64) {
	putU32(b, uint32(v))
	putU32(b[4:], uint32(v>>32))
}

// queryArgErr runs q with args to its end and returns its error.
func queryArgErr(db *sql.DB, q string, args ...any) error {
	rows, err := db.Query(q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}
