package vtab_test

import (
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// writeQuantFile writes one dataset per dtype, small shapes with edge
// chunks, values with many duplicates, NaN, ±Inf and ±0 (floats), and
// for some datasets a first slab that is all NaN.
func writeQuantFile(t *testing.T, rng *rand.Rand) (string, []diffDataset) {
	var sets []diffDataset
	for i, dt := range tetcore.AllDTypes {
		rank := 1 + rng.IntN(3)
		shape, chunk := make([]int64, rank), make([]int64, rank)
		names := make([]string, rank)
		n := int64(1)
		for a := range shape {
			shape[a] = 1 + rng.Int64N(13)
			chunk[a] = 1 + rng.Int64N(shape[a]+1)
			names[a] = fmt.Sprintf("k%d", a)
			n *= shape[a]
		}
		size := int64(dt.Size())
		data := make([]byte, n*size)
		narrow := rng.IntN(2) == 0
		allNaN := dt.IsFloat() && rng.IntN(2) == 0
		for j := int64(0); j < n; j++ {
			b := data[j*size:]
			f := rng.NormFloat64() * 100
			switch k := rng.IntN(20); {
			case allNaN && j < n/shape[0], k == 0:
				f = math.NaN()
			case k == 1:
				f = math.Inf(1)
			case k == 2:
				f = math.Inf(-1)
			case k == 3:
				f = math.Copysign(0, -1)
			case k < 10:
				f = []float64{0, 1.5, -2.25, 7}[rng.IntN(4)]
			}
			switch dt {
			case tetcore.F32:
				binary.LittleEndian.PutUint32(b, math.Float32bits(float32(f)))
			case tetcore.F64:
				binary.LittleEndian.PutUint64(b, math.Float64bits(f))
			case tetcore.F16:
				binary.LittleEndian.PutUint16(b, tetcore.Float32ToHalf(float32(f)))
			default:
				for k := range size {
					b[k] = byte(rng.IntN(256))
				}
				if narrow { // few distinct values: ties
					for k := range size {
						b[k] = 0
					}
					b[0] = byte(rng.IntN(5))
					if rng.IntN(3) == 0 {
						for k := range size {
							b[k] = 0xff // -1, or the type's maximum
						}
					}
				}
			}
		}
		spec := tetcore.DatasetSpec{Name: fmt.Sprintf("a%d", i), DType: dt, Shape: shape, ChunkShape: chunk,
			Codec: tetcore.Codec(rng.IntN(2)), DimNames: names, Labels: make([][]string, rank)}
		for a := range shape {
			if rng.IntN(2) == 0 {
				labels := make([]string, shape[a])
				for j := range labels {
					labels[j] = fmt.Sprintf("%c%02d", 'A'+rng.IntN(3), j)
				}
				spec.Labels[a] = labels
			}
		}
		sets = append(sets, diffDataset{spec, data})
	}
	path := writeSets(t, "quant.tet", sets)
	return path, sets
}

// refGroup is the brute-force reference of one group: its non-NULL
// values in rowid order, with their rowids.
type refGroup struct {
	vals   []float64
	rowids []int64
}

// quantileRef is the documented definition on a sorted copy.
func quantileRef(xs []float64, q float64) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return "<nil>"
	}
	h := float64(len(s)-1) * q
	a, b, t := s[int(math.Floor(h))], s[int(math.Ceil(h))], h-math.Floor(h)
	switch {
	case t == 0 || a == b:
		return fmt.Sprint(a + 0) // −0 reads as +0
	case math.IsInf(a, -1) && math.IsInf(b, 1):
		return "<nil>"
	case math.IsInf(a, -1):
		return fmt.Sprint(a)
	case math.IsInf(b, 1):
		return fmt.Sprint(b)
	}
	return fmt.Sprint(a + t*(b-a))
}

// argRef is the rowid of the first value equal to the extreme (as
// SELECT rowid … WHERE value = (SELECT min(value) …) ORDER BY rowid LIMIT 1).
func argRef(g refGroup, low bool) string {
	best := -1
	for i, v := range g.vals {
		if best < 0 || low && v < g.vals[best] || !low && v > g.vals[best] {
			best = i
		}
	}
	if best < 0 {
		return "<nil>"
	}
	return fmt.Sprint(g.rowids[best])
}

// groupsOf reads the selected cells of table (schema-qualified: the
// cells table or its native copy) and groups them by the key columns
// keys (SQL expressions such as "k0/3"), rendered like rowsOf renders.
func groupsOf(t *testing.T, db *sql.DB, table, keys, where string) (order []string, groups map[string]*refGroup) {
	sel := "''"
	if keys != "" {
		sel = "(" + strings.ReplaceAll(keys, ",", ")||'|'||(") + ")" // || binds tighter than /
	}
	rows, err := db.Query(fmt.Sprintf("SELECT %s, rowid, value FROM %s WHERE %s ORDER BY rowid", sel, table, where))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	groups = map[string]*refGroup{}
	for rows.Next() {
		var key string
		var rowid int64
		var v sql.NullFloat64
		if err := rows.Scan(&key, &rowid, &v); err != nil {
			t.Fatal(err)
		}
		g := groups[key]
		if g == nil {
			g = &refGroup{}
			groups[key] = g
			order = append(order, key)
		}
		if v.Valid {
			g.vals, g.rowids = append(g.vals, v.Float64), append(g.rowids, rowid)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return order, groups
}

// TestAggQuantile_againstBruteForce compares median, quantile, argmin and
// argmax, ungrouped, grouped and coarsened, with a Go reference over the
// cells table's values, for every dtype, random dim and label terms and
// the q values of the contract's edge cases.
func TestAggQuantile_againstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	path, sets := writeQuantFile(t, rng)
	db, _ := openDB(t, map[string]string{"f": path})
	qs := []float64{0, 1, 0.5, 0.9, 1e-9}
	for round := 0; round < 400; round++ {
		s := sets[rng.IntN(len(sets))].spec
		where := "1"
		for k := rng.IntN(3); k > 0; k-- {
			where += " AND " + groupedTerm(rng, s)
		}
		var by, keys []string
		for a, d := range s.DimNames {
			switch rng.IntN(3) {
			case 0:
				by, keys = append(by, d), append(keys, d)
			case 1:
				k := 1 + rng.Int64N(s.Shape[a]+1)
				by, keys = append(by, fmt.Sprintf("%s/%d", d, k)), append(keys, fmt.Sprintf("%s/%d", d, k))
			}
		}
		q := qs[rng.IntN(len(qs))]
		order, groups := groupsOf(t, db, "f."+s.Name, strings.Join(keys, ","), where)
		cols := "median, quantile, argmin, argmax"
		if rng.IntN(3) == 0 {
			cols = "argmax, quantile, median, argmin" // any subset, any order
		}
		dims := ""
		for _, k := range keys {
			dims += strings.Split(k, "/")[0] + ", "
		}
		orderBy := "1"
		if len(keys) > 0 {
			orderBy = strings.TrimSuffix(dims, ", ")
		}
		got := rowsOf(t, db, fmt.Sprintf("SELECT %s%s FROM f.%s_agg('%s', %v) WHERE %s ORDER BY %s",
			dims, cols, s.Name, strings.Join(by, ","), q, where, orderBy))
		if len(keys) == 0 && len(order) == 0 {
			order, groups = []string{""}, map[string]*refGroup{"": {}}
		}
		if len(got) != len(order) {
			if len(got) == 0 && len(keys) == 0 {
				continue // SQLite proved the WHERE false without asking
			}
			t.Fatalf("%s by %v WHERE %s: %d rows, want %d\n%v", s.Name, by, where, len(got), len(order), got)
		}
		if len(keys) == 0 && len(got) == 1 { // the contract's SQL form of argmin and argmax
			for _, f := range []string{"min", "max"} {
				sqlArg := rowsOf(t, db, fmt.Sprintf("SELECT (SELECT rowid FROM f.%[1]s WHERE %[2]s AND value = (SELECT %[3]s(value) FROM f.%[1]s WHERE %[2]s) ORDER BY rowid LIMIT 1)", s.Name, where, f))
				if want := argRef(*groups[order[0]], f == "min"); s.DType != tetcore.U64 && sqlArg[0] != want {
					t.Fatalf("%s WHERE %s: SQL arg%s %v, reference %s", s.Name, where, f, sqlArg, want)
				}
			}
		}
		for i, key := range order {
			g := *groups[key]
			want := map[string]string{"median": quantileRef(g.vals, 0.5), "quantile": quantileRef(g.vals, q),
				"argmin": argRef(g, true), "argmax": argRef(g, false)}
			parts := strings.Split(got[i], "|")
			if key != "" && strings.Join(parts[:len(keys)], "|") != key {
				t.Fatalf("%s by %v WHERE %s: row %d key %v, want %s", s.Name, by, where, i, parts[:len(keys)], key)
			}
			for j, c := range strings.Split(cols, ", ") {
				if v := parts[len(keys)+j]; v != want[c] {
					t.Fatalf("%s (%s) by %v q=%v WHERE %s group %q: %s = %s, want %s (values %v)",
						s.Name, s.DType, by, q, where, key, c, v, want[c], g.vals)
				}
			}
		}
	}
}

// TestAggCoarsen_agreesWithGroupBy: coarsened groups give what GROUP BY
// dim/k over the cells table gives, under dim and label terms.
func TestAggCoarsen_agreesWithGroupBy(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	path, sets := writeQuantFile(t, rng)
	db, _ := openDB(t, map[string]string{"f": path})
	for round := 0; round < 200; round++ {
		s := sets[rng.IntN(len(sets))].spec
		var by, keys, dims []string
		for a, d := range s.DimNames {
			if a == 0 || rng.IntN(2) == 0 {
				k := 1 + rng.Int64N(s.Shape[a]+2)
				by = append(by, fmt.Sprintf("%s/%d", d, k))
				keys = append(keys, fmt.Sprintf("%s/%d", d, k))
				dims = append(dims, d)
			}
		}
		where := "1"
		for k := rng.IntN(3); k > 0; k-- {
			where += " AND " + groupedTerm(rng, s)
		}
		kl, dl := strings.Join(keys, ", "), strings.Join(dims, ", ")
		want := rowsOf(t, db, fmt.Sprintf("SELECT %s, count(value), count(*)-count(value), min(value), max(value) FROM f.%s WHERE %s GROUP BY %s ORDER BY %s", kl, s.Name, where, kl, kl))
		got := rowsOf(t, db, fmt.Sprintf("SELECT %s, count, null_count, min, max FROM f.%s_agg('%s') WHERE %s ORDER BY %s", dl, s.Name, strings.Join(by, ","), where, dl))
		if len(got) != len(want) {
			t.Fatalf("%s by %v WHERE %s: %d groups, want %d\n%v\n%v", s.Name, by, where, len(got), len(want), got, want)
		}
		for r := range want {
			w, g := strings.Split(want[r], "|"), strings.Split(got[r], "|")
			for i := range w {
				if !closeEnough(w[i], g[i]) {
					t.Fatalf("%s by %v WHERE %s row %d: agg %v, GROUP BY %v", s.Name, by, where, r, g, w)
				}
			}
		}
	}
}

func TestAggQuantile_contract(t *testing.T) {
	db, sess := openDB(t, map[string]string{"st": writeStations(t), "s": ref("sample.tet")})
	// temperature = 1..6 over a 2×3 grid.
	for q, want := range map[string]string{
		"SELECT median, quantile, argmin, argmax FROM s.temperature_agg('', 0.9)":                      "3.5|5.5|0|5",
		"SELECT median, quantile FROM s.temperature_agg WHERE q = 0.25":                                "3.5|2.25",
		"SELECT quantile, q FROM s.temperature_agg('', '0.5')":                                         "3.5|0.5",
		"SELECT median, quantile, argmin FROM s.temperature_agg":                                       "3.5|<nil>|0",
		"SELECT median, median * 2 FROM s.temperature_agg":                                             "3.5|7",
		"SELECT count, median, argmax FROM s.temperature_agg WHERE d0 > 100":                           "0|<nil>|<nil>",
		"SELECT group_concat(time || ':' || median, ' ') FROM st.temp_agg('time/7') WHERE station = 2": "0:302.0 1:1002.0 2:1702.0 3:2402.0 4:2852.0",
	} {
		if got := rowsOf(t, db, q); strings.Join(got, ",") != want {
			t.Errorf("%s: %v, want %s", q, got, want)
		}
	}
	// The label of a coarsened axis is NULL; its dim holds index / k.
	if got := rowsOf(t, db, "SELECT time, time_label, count FROM st.temp_agg('time/7') WHERE time >= 26"); strings.Join(got, ",") != "3|<nil>|10,4|<nil>|10" {
		t.Errorf("coarsened labels: %v", got)
	}
	// A k longer than the axis, up to and beyond int64, gives one block.
	whole := rowsOf(t, db, "SELECT 0, count FROM st.temp_agg WHERE station = 2")
	for _, k := range []string{"1000", "9223372036854775806", "99999999999999999999"} {
		if got := rowsOf(t, db, "SELECT time, count FROM st.temp_agg('time/"+k+"') WHERE station = 2"); !slices.Equal(got, whole) {
			t.Errorf("time/%s: %v, want one block %v", k, got, whole)
		}
	}
	// Rows for other q are other rows (rowids differ), also under IN.
	if got := rowsOf(t, db, "SELECT count(DISTINCT rowid), group_concat(quantile, ' ') FROM s.temperature_agg WHERE q IN (0.5, 0.9, 0.5)"); got[0] != "2|3.5 5.5" {
		t.Errorf("q IN: %v", got)
	}
	// Consumed terms select elements by index, others filter blocks.
	if got := rowsOf(t, db, "SELECT time, count FROM st.temp_agg('time/7') WHERE time > 20"); strings.Join(got, ",") != "3|35,4|10" {
		t.Errorf("time > 20: %v", got)
	}
	if got := rowsOf(t, db, "SELECT time, count FROM st.temp_agg('time/7') WHERE +time > 3"); strings.Join(got, ",") != "4|10" {
		t.Errorf("+time > 3: %v", got)
	}
	for _, c := range []struct{ q, err string }{
		{"SELECT quantile FROM s.temperature_agg('', 1.5)", "q must be a number from 0 to 1, got 1.5"},
		{"SELECT quantile FROM s.temperature_agg('', -0.1)", "q must be a number from 0 to 1, got -0.1"},
		{"SELECT quantile FROM s.temperature_agg('', 'half')", `q must be a number from 0 to 1, got "half"`},
		{"SELECT quantile FROM s.temperature_agg('', NULL)", "q must be a number from 0 to 1, got NULL"},
		{"SELECT count FROM st.temp_agg('time/0')", `by: "time/0": the block size after / must be a positive integer, got "0"`},
		{"SELECT count FROM st.temp_agg('time/-3')", `the block size after / must be a positive integer, got "-3"`},
		{"SELECT count FROM st.temp_agg('time/x')", `the block size after / must be a positive integer, got "x"`},
		{"SELECT count FROM st.temp_agg('time/')", `the block size after / must be a positive integer, got ""`},
		{"SELECT count FROM st.temp_agg('/3')", `"/3": no dim before /`},
		{"SELECT count FROM st.temp_agg('time/2,time/3')", `dim "time" named twice with different block sizes (2 and 3)`},
		{"SELECT count FROM st.temp_agg('tim/3')", `unknown dim "tim"`},
	} {
		if err := queryErr(db, c.q); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", c.q, err, c.err)
		}
	}
	// Plain queries do not run the second pass: its chunks show in the stats.
	sess.TakeScans()
	rowsOf(t, db, "SELECT count, mean FROM st.temp_agg WHERE time = 3")
	plain := sess.TakeScans()
	rowsOf(t, db, "SELECT count, median FROM st.temp_agg WHERE time = 3")
	costly := sess.TakeScans()
	if len(plain) != 1 || len(costly) != 1 || costly[0].ChunksDecoded != 2*plain[0].ChunksDecoded {
		t.Errorf("chunks read: plain %+v, with median %+v", plain, costly)
	}
}

// TestAggQuantile_memLimit: the gathered values count against the
// session's memory limit, and the refusal names them.
func TestAggQuantile_memLimit(t *testing.T) {
	db, sess := openDB(t, map[string]string{"st": writeStations(t)})
	want := rowsOf(t, db, "SELECT median, argmax FROM st.temp_agg")
	sess.MemLimit = 8 << 10 // the fold fits, 150 f32 values' gathering too
	if got := rowsOf(t, db, "SELECT median, argmax FROM st.temp_agg"); !slices.Equal(got, want) {
		t.Fatalf("8 KiB: %v, want %v", got, want)
	}
	sess.MemLimit = 600
	err := queryErr(db, "SELECT median FROM st.temp_agg")
	if err == nil || !strings.Contains(err.Error(), "median and quantile needs 600 B for 150 values, above the memory limit of 600 B") {
		t.Fatalf("600 B: %v", err)
	}
	if got := rowsOf(t, db, "SELECT count FROM st.temp_agg"); len(got) != 1 {
		t.Fatalf("count under 600 B: %v", got)
	}
}

// groupedTerm is a random dim or label term, IN lists included (read
// whole, they select elements like any other term), rowid excluded.
func groupedTerm(rng *rand.Rand, s tetcore.DatasetSpec) string {
	for {
		if tm := randomTerm(rng, s); !strings.HasPrefix(tm.sql, "rowid") {
			return tm.sql
		}
	}
}

// TestAggCoarsen_dimNamedWithSlash: a dim whose name holds "/" is named
// as is, not coarsened.
func TestAggCoarsen_dimNamedWithSlash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "slash.tet")
	w, _ := tetcore.Create(path)
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "v", DType: tetcore.I16, Shape: []int64{6, 2}, ChunkShape: []int64{4, 2},
		DimNames: []string{"t/2", "x"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteDataset(make([]byte, 6*2*2)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	db, _ := openDB(t, map[string]string{"f": path})
	if got := rowsOf(t, db, "SELECT count(*), sum(count) FROM f.v_agg('t/2')"); got[0] != "6|12" {
		t.Errorf("by 't/2': %v", got)
	}
	if got := rowsOf(t, db, "SELECT count(*), sum(count) FROM f.v_agg('t/2/3')"); got[0] != "2|12" {
		t.Errorf("by 't/2/3': %v", got)
	}
}
