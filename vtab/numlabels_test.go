package vtab_test

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/planner"
	"github.com/tetsql/tetsql/tetcore"
)

// Typed coordinate labels: numeric labels give INTEGER/REAL label
// columns whose terms push down. Every query runs on the cells (or _agg)
// table and on a native SQLite table holding the same rows, with label
// columns of the same declared type holding the same numbers.

// numAxes are the label axes of the fixtures: REAL descending (with a
// "-0.0"), INTEGER ascending, INTEGER unordered with duplicates, REAL
// non-decreasing (a repeat, spelled two ways).
var numAxes = [][]string{
	{"90.0", "67.5", "45.0", "22.5", "-0.0", "-22.5", "-45.0", "-67.5", "-90.0"},
	{"-150", "-90", "-30", "30", "90", "150"},
	{"850", "500", "850", "1000", "250"},
	{"5e-1", "0.5", "1.5", "2.00"},
}

// writeNumLabelled writes datasets "f" (f32, NaN included) and "i" (i32)
// over numAxes, in chunks that leave edge chunks on every axis.
func writeNumLabelled(t *testing.T, rng *rand.Rand) (string, []diffDataset) {
	t.Helper()
	shape := []int64{9, 6, 5, 4}
	n := 9 * 6 * 5 * 4
	var sets []diffDataset
	for _, dt := range []tetcore.DType{tetcore.F32, tetcore.I32} {
		data := make([]byte, n*4)
		for j := range n {
			v := uint32(int32(rng.IntN(200) - 100))
			if dt == tetcore.F32 {
				f := float32(rng.NormFloat64() * 10)
				if rng.IntN(10) == 0 {
					f = float32(math.NaN())
				}
				v = math.Float32bits(f)
			}
			putU32(data[4*j:], v)
		}
		name := "f"
		if dt == tetcore.I32 {
			name = "i"
		}
		sets = append(sets, diffDataset{tetcore.DatasetSpec{Name: name, DType: dt, Shape: shape,
			ChunkShape: []int64{4, 4, 2, 3}, Codec: tetcore.CodecZstd, DimNames: []string{"lat", "lon", "lev", "ens"},
			Labels: numAxes}, data})
	}
	path := writeSets(t, "numlabels.tet", sets)
	return path, sets
}

// labelNumber is a label as the native table stores it: the number
// SQLite's REAL or INTEGER column holds.
func labelNumber(s string, real bool) any {
	i, f, isInt, ok := planner.ParseLabelNumber(s)
	switch {
	case !ok:
		panic(s)
	case isInt && !real:
		return i
	case isInt:
		return float64(i)
	}
	return f + 0
}

// copyNumNative creates main.n_<name> with typed label columns.
func copyNumNative(t *testing.T, db *sql.DB, s diffDataset, types []string) {
	t.Helper()
	sp := s.spec
	var cols, names []string
	for _, d := range sp.DimNames {
		cols, names = append(cols, d+" INTEGER"), append(names, d)
	}
	for a, d := range sp.DimNames {
		cols, names = append(cols, d+"_label "+types[a]), append(names, d+"_label")
	}
	vt := map[tetcore.DType]string{tetcore.F32: "FLOAT", tetcore.I32: "INTEGER"}[sp.DType]
	cols, names = append(cols, "value "+vt), append(names, "value", "rowid")
	if _, err := db.Exec(fmt.Sprintf("CREATE TABLE main.n_%s(%s)", sp.Name, strings.Join(cols, ", "))); err != nil {
		t.Fatal(err)
	}
	ins := fmt.Sprintf("INSERT INTO main.n_%s(%s) VALUES (%s)", sp.Name, strings.Join(names, ", "),
		strings.TrimSuffix(strings.Repeat("?, ", len(names)), ", "))
	n := int64(1)
	for _, v := range sp.Shape {
		n *= v
	}
	coords := make([]int64, len(sp.Shape))
	for r := range n {
		rem := r
		for a := len(sp.Shape) - 1; a >= 0; a-- {
			coords[a], rem = rem%sp.Shape[a], rem/sp.Shape[a]
		}
		var args []any
		for _, c := range coords {
			args = append(args, c)
		}
		for a := range sp.Shape {
			args = append(args, labelNumber(sp.Labels[a][coords[a]], types[a] == "REAL"))
		}
		args = append(args, elementValue(sp.DType, s.data, r), r)
		if _, err := db.Exec(ins, args...); err != nil {
			t.Fatal(err)
		}
	}
}

// numLiteral renders an SQL literal near the labels of axis a.
func numLiteral(rng *rand.Rand, a int) string {
	labels := numAxes[a]
	x, _ := strconv.ParseFloat(labels[rng.IntN(len(labels))], 64)
	real := func(f float64) string {
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return s
	}
	switch rng.IntN(14) {
	case 0:
		return strconv.FormatInt(int64(x), 10)
	case 1, 2:
		return real(x)
	case 3:
		return real(x + 0.25) // between labels
	case 4:
		return "'" + real(x) + "'" // TEXT with numeric affinity
	case 5:
		return fmt.Sprintf("' %d '", int64(x)) // spaces: still a number by affinity
	case 6:
		return "'abc'" // stays TEXT: greater than every number
	case 7:
		return "NULL"
	case 8:
		return []string{"-0.0", "0", "0.0", "'-0'"}[rng.IntN(4)]
	case 9:
		return []string{"1e999", "-1e999", "9223372036854775807", "-9223372036854775808", "1e300"}[rng.IntN(5)]
	case 10:
		return strconv.Itoa(rng.IntN(400) - 200) // often outside the labels
	case 11:
		return "x'3435'" // BLOB: greater than every number
	case 12:
		return "CAST('" + real(x) + "' AS TEXT)"
	}
	return real(x - 0.5)
}

// numLeaf writes one term on a label or dim column.
func numLeaf(rng *rand.Rand) string {
	a := rng.IntN(len(numAxes))
	names := []string{"lat", "lon", "lev", "ens"}
	if rng.IntN(5) == 0 {
		return fmt.Sprintf("%s %s %d", names[a], sqlOps[rng.IntN(len(sqlOps))], rng.IntN(10)-1)
	}
	col := names[a] + "_label"
	switch rng.IntN(6) {
	case 0:
		return fmt.Sprintf("%s BETWEEN %s AND %s", col, numLiteral(rng, a), numLiteral(rng, a))
	case 1:
		return fmt.Sprintf("%s IN (%s, %s, %s)", col, numLiteral(rng, a), numLiteral(rng, a), numLiteral(rng, a))
	}
	return fmt.Sprintf("%s %s %s", col, sqlOps[rng.IntN(len(sqlOps))], numLiteral(rng, a))
}

func numWhere(rng *rand.Rand) string {
	var terms []string
	for range 1 + rng.IntN(3) {
		terms = append(terms, numLeaf(rng))
	}
	if rng.IntN(4) == 0 {
		return "(" + terms[0] + ") OR (" + strings.Join(terms, " AND ") + ")"
	}
	return strings.Join(terms, " AND ")
}

func TestNumericLabels_matchNativeTable(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(15, 55))
	path, sets := writeNumLabelled(t, rng)
	db, _ := openDB(t, map[string]string{"x": path})
	types := []string{"REAL", "INTEGER", "INTEGER", "REAL"}
	for _, s := range sets {
		copyNumNative(t, db, s, types)
	}
	// Declared types and values; tet_coords keeps the labels as written.
	if got := rowsOf(t, db, "SELECT name, type FROM pragma_table_info('f', 'x') WHERE name LIKE '%_label'"); !slices.Equal(got,
		[]string{"lat_label|REAL", "lon_label|INTEGER", "lev_label|INTEGER", "ens_label|REAL"}) {
		t.Errorf("label column types %v", got)
	}
	if got := rowsOf(t, db, "SELECT typeof(lat_label), lat_label, typeof(lon_label), lon_label, ens_label FROM x.f WHERE rowid = 4*120+3"); !slices.Equal(got,
		[]string{"real|0|integer|-150|2"}) {
		t.Errorf("typed values %v", got)
	}
	if got := rowsOf(t, db, "SELECT label FROM x.tet_coords WHERE dataset = 'f' AND dim = 'lat' AND idx = 4"); !slices.Equal(got, []string{"-0.0"}) {
		t.Errorf("tet_coords label %v", got)
	}
	run := func(q string) []string { return rowsOf(t, db, q) }
	cols := "rowid, lat, lon, lev, ens, lat_label, lon_label, lev_label, ens_label, value"
	// Bound arguments of every Go type the driver passes.
	args := []any{int64(45), 45.0, 44.5, "45", " 45.0 ", "abc", nil, []byte("45"), math.Copysign(0, -1), int64(850), 850.0, "0.5", 1.5}
	for _, col := range []string{"lat_label", "lev_label", "ens_label", "lon_label"} {
		for _, op := range append(sqlOps, "IN") {
			for _, v := range args {
				term := col + " " + op + " ?"
				if op == "IN" {
					term = col + " IN (?, 30, 2.0)"
				}
				q := fmt.Sprintf("SELECT %s FROM %%s WHERE %s ORDER BY rowid", cols, term)
				got := rowsOf(t, db, fmt.Sprintf(q, "x.f"), v)
				want := rowsOf(t, db, fmt.Sprintf(q, "n_f"), v)
				if !slices.Equal(got, want) {
					t.Fatalf("%s with %T %v: %d rows, native %d", term, v, v, len(got), len(want))
				}
				aq := "SELECT count, sum FROM %s WHERE " + term
				got = rowsOf(t, db, fmt.Sprintf(aq, "x.i_agg"), v)
				want = rowsOf(t, db, fmt.Sprintf(strings.Replace(aq, "count, sum", "count(value), sum(value)", 1), "n_i"), v)
				if !slices.Equal(got, want) && !(len(got) == 0 && slices.Equal(want, []string{"0|<nil>"})) {
					t.Fatalf("_agg %s with %T %v: %v, native %v", term, v, v, got, want)
				}
			}
		}
	}
	for range 600 {
		w := numWhere(rng)
		for _, tbl := range []string{"f", "i"} {
			got := run(fmt.Sprintf("SELECT %s FROM x.%s WHERE %s ORDER BY rowid", cols, tbl, w))
			want := run(fmt.Sprintf("SELECT %s FROM n_%s WHERE %s ORDER BY rowid", cols, tbl, w))
			if !slices.Equal(got, want) {
				t.Fatalf("%s WHERE %s: %d rows, native %d\n got %v\nwant %v", tbl, w, len(got), len(want), got[:min(len(got), 5)], want[:min(len(want), 5)])
			}
		}
		if strings.Contains(w, " OR ") {
			continue // _agg applies OR terms to its output rows
		}
		for _, by := range []string{"", "lat", "lev", "lon,ens"} {
			group, sel := "", "count, sum, min, max"
			nsel := "count(value), sum(value), min(value), max(value)"
			if by != "" {
				keys := strings.Split(by, ",")
				for i := range keys {
					keys[i] += "_label"
				}
				group = " GROUP BY " + by + " ORDER BY " + by
				sel, nsel = strings.Join(keys, ", ")+", "+sel, strings.Join(keys, ", ")+", "+nsel
			}
			got := run(fmt.Sprintf("SELECT %s FROM x.i_agg('%s') WHERE %s%s", sel, by, w, strings.Replace(group, " GROUP BY "+by, "", 1)))
			want := run(fmt.Sprintf("SELECT %s FROM n_i WHERE %s%s", nsel, w, group))
			// SQLite's constant propagation turns "x = 3 AND x <= 0" into
			// a false WHERE, which filters the _agg's one output row away
			// where a native aggregate still returns its row of count 0.
			if len(got) == 0 && slices.Equal(want, []string{"0|<nil>|<nil>|<nil>"}) {
				continue
			}
			if !slices.Equal(got, want) {
				t.Fatalf("i_agg('%s') WHERE %s:\n got %v\nwant %v", by, w, got, want)
			}
		}
	}
}

// TestNumericLabels_pushdown: ranges on ordered numeric labels, ascending
// or descending, decode only the chunks they select; on an unordered axis
// a range still narrows to the hull of its matches.
func TestNumericLabels_pushdown(t *testing.T) {
	t.Parallel()
	lats := make([]string, 180)
	for i := range lats {
		lats[i] = strconv.FormatFloat(89.5-float64(i), 'f', 1, 64) // 89.5 … -89.5, descending
	}
	lons := make([]string, 360)
	for i := range lons {
		lons[i] = strconv.Itoa(i) // 0 … 359, ascending
	}
	shuffled := slices.Clone(lons)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	halves := make([]string, 360)
	for i := range halves {
		halves[i] = strconv.Itoa(i / 2) // 0 0 1 1 …: ordered, not strictly
	}
	path := filepath.Join(t.TempDir(), "grid.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range []tetcore.DatasetSpec{
		{Name: "g", DType: tetcore.F32, Shape: []int64{180, 360}, ChunkShape: []int64{10, 30}, DimNames: []string{"lat", "lon"}, Labels: [][]string{lats, lons}},
		{Name: "s", DType: tetcore.F32, Shape: []int64{180, 360}, ChunkShape: []int64{10, 30}, DimNames: []string{"lat", "lon"}, Labels: [][]string{lats, shuffled}},
		{Name: "d", DType: tetcore.F32, Shape: []int64{180, 360}, ChunkShape: []int64{10, 30}, DimNames: []string{"lat", "lon"}, Labels: [][]string{lats, halves}},
	} {
		if err := w.AddDataset(sp); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		if err := w.WriteDataset(make([]byte, 180*360*4)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	db, sess := openDB(t, map[string]string{"x": path})
	cases := []struct {
		q      string
		chunks int64
		rows   int64
	}{
		{"SELECT count(*) FROM x.g WHERE lat_label BETWEEN 10 AND 20 AND lon_label < 30", 1, 300},
		{"SELECT count(*) FROM x.g WHERE lat_label > 79 AND lon_label >= '330'", 2, 330},
		{"SELECT count(*) FROM x.g WHERE lat_label = -0.5 AND lon_label IN (3, 100, 100.5)", 2, 2},
		{"SELECT count(*) FROM x.g WHERE lat_label = 0", 0, 0},
		// Consumed exactly, so LIMIT is consumed too: the scan stops early.
		{"SELECT value FROM x.g WHERE lat_label < 0 AND lon_label >= 100 LIMIT 5", 1, 5},
		{"SELECT count(*) FROM x.g WHERE lat_label < 'abc' AND lat_label >= 89", 12, 360},
		{"SELECT count(*) FROM x.g WHERE lat_label > 'abc'", 0, 0},
		{"SELECT count(*) FROM x.g WHERE lat_label >= NULL", 0, 0},
		{"SELECT count, mean FROM x.g_agg WHERE lat_label BETWEEN -20 AND -10.5", 12, 1},
		// Repeated, ordered labels: still one exact range.
		{"SELECT count(*) FROM x.d WHERE lat_label < -80 AND lon_label BETWEEN 15 AND 29.5", 1, 300},
		{"SELECT count(*) FROM x.d WHERE lat_label < -80 AND lon_label = 100", 1, 20},
		// Unordered labels: equality is exact, a range decodes its hull.
		{"SELECT count(*) FROM x.s WHERE lat_label > 79.5 AND lon_label = 7", 1, 10},
		{"SELECT count(*) FROM x.s WHERE lat_label > 79.5 AND lon_label < 2", -1, -1},
	}
	for _, tc := range cases {
		got := rowsOf(t, db, tc.q)
		scans := sess.TakeScans()
		if len(scans) != 1 {
			t.Fatalf("%s: %d scans", tc.q, len(scans))
		}
		s := scans[0]
		chunks := s.ChunksDecoded + s.CacheHits
		if tc.chunks >= 0 && (chunks != tc.chunks || s.Rows != tc.rows) {
			t.Errorf("%s: %d chunks, %d rows (%v); want %d chunks, %d rows", tc.q, chunks, s.Rows, got, tc.chunks, tc.rows)
		}
		if tc.chunks < 0 && (chunks == 0 || chunks > s.ChunksTotal/18 || got[0] != "20") {
			t.Errorf("%s: %d chunks of %d: the hull of a range on unordered labels should prune lat", tc.q, chunks, s.ChunksTotal)
		}
	}
}

// TestParseLabelNumber_matchesSQLite: a label read as a number has the
// value SQLite gives the same text in a REAL or INTEGER column.
func TestParseLabelNumber_matchesSQLite(t *testing.T) {
	t.Parallel()
	db, _ := openDB(t, nil)
	rng := rand.New(rand.NewPCG(7, 7))
	digits := func(n int) string {
		b := []byte{byte('1' + rng.IntN(9))}
		for range n - 1 {
			b = append(b, byte('0'+rng.IntN(10)))
		}
		return string(b)
	}
	labels := []string{"0", "-0.0", "9223372036854775807", "-9223372036854775808", "1e-400", "1.7976931348623157e308",
		"4.9e-324", "0.1", "89.75", "2.5e+2", "1E-3", "9007199254740993.0"}
	for range 300 {
		s := digits(1 + rng.IntN(18))
		if rng.IntN(2) == 0 {
			s += "." + digits(1+rng.IntN(17))
		}
		if rng.IntN(3) == 0 {
			s += fmt.Sprintf("e%d", rng.IntN(40)-20)
		}
		if rng.IntN(2) == 0 {
			s = "-" + s
		}
		labels = append(labels, s)
	}
	for _, s := range labels {
		i, f, isInt, ok := planner.ParseLabelNumber(s)
		if !ok {
			t.Fatalf("%q not read as a number", s)
		}
		var got any = f
		q := "SELECT CAST(? AS REAL)"
		if isInt {
			got, q = i, "SELECT CAST(? AS INTEGER)"
		}
		if want := rowsOf(t, db, q, s); !slices.Equal(want, []string{fmt.Sprint(got)}) {
			t.Errorf("%q: %v, SQLite %v", s, got, want)
		}
	}
}
