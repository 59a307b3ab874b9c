package vtab_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// writeAggFile writes one dataset per dtype with plausible values: floats
// around ±100 with ~5% NaN, integers over the dtype's whole range.
func writeAggFile(t *testing.T, rng *rand.Rand) (string, []diffDataset) {
	var sets []diffDataset
	for i, dt := range tetcore.AllDTypes {
		rank := 1 + rng.IntN(3)
		shape, chunk := make([]int64, rank), make([]int64, rank)
		n := int64(1)
		names := make([]string, rank)
		for a := range shape {
			shape[a] = 1 + rng.Int64N(12)
			chunk[a] = 1 + rng.Int64N(shape[a]+1)
			n *= shape[a]
			names[a] = fmt.Sprintf("k%d", a)
		}
		size := dt.Size()
		data := make([]byte, n*int64(size))
		for j := int64(0); j < n; j++ {
			b := data[j*int64(size):]
			f := rng.NormFloat64() * 100
			if rng.IntN(20) == 0 {
				f = math.NaN()
			}
			switch dt {
			case tetcore.F32:
				binary.LittleEndian.PutUint32(b, math.Float32bits(float32(f)))
			case tetcore.F64:
				binary.LittleEndian.PutUint64(b, math.Float64bits(f))
			case tetcore.F16:
				binary.LittleEndian.PutUint16(b, tetcore.Float32ToHalf(float32(f)))
			default:
				for k := 0; k < size; k++ {
					b[k] = byte(rng.IntN(256))
				}
			}
		}
		spec := tetcore.DatasetSpec{Name: fmt.Sprintf("a%d", i), DType: dt, Shape: shape, ChunkShape: chunk,
			Codec: tetcore.Codec(rng.IntN(2)), DimNames: names, Labels: make([][]string, rank)}
		for a := range shape {
			if rng.IntN(2) == 0 {
				labels := make([]string, shape[a])
				for j := range labels {
					labels[j] = fmt.Sprintf("%c%02d", 'A'+rng.IntN(3), j) // unsorted, unique
				}
				spec.Labels[a] = labels
			}
		}
		sets = append(sets, diffDataset{spec, data})
	}
	path := writeSets(t, "agg.tet", sets)
	return path, sets
}

// aggTerm is a random dim or label term without IN (IN lists give one
// aggregate row per value; see docs/SQL.md).
func aggTerm(rng *rand.Rand, s tetcore.DatasetSpec) string {
	for {
		tm := randomTerm(rng, s)
		if !strings.Contains(tm.sql, " IN ") && !strings.HasPrefix(tm.sql, "rowid") {
			return tm.sql
		}
	}
}

func closeEnough(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	return math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y))
}

func TestAgg_agreesWithCellsAggregates(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	path, sets := writeAggFile(t, rng)
	db, _ := openDB(t, map[string]string{"f": path})
	for q := 0; q < 300; q++ {
		s := sets[rng.IntN(len(sets))].spec
		where := "1"
		for k := rng.IntN(3); k > 0; k-- {
			where += " AND " + aggTerm(rng, s)
		}
		cells := rowsOf(t, db, fmt.Sprintf("SELECT count(value), count(*)-count(value), total(value), avg(value), min(value), max(value) FROM f.%s WHERE %s", s.Name, where))
		agg := rowsOf(t, db, fmt.Sprintf("SELECT count, null_count, coalesce(sum, 0.0), mean, min, max FROM f.%s_agg WHERE %s", s.Name, where))
		if len(agg) == 0 && strings.HasPrefix(cells[0], "0|0|") {
			continue // SQLite proved the WHERE false and never asked the table
		}
		if len(agg) != 1 {
			t.Fatalf("%s WHERE %s: agg rows %v, cells %v", s.Name, where, agg, cells)
		}
		c, a := strings.Split(cells[0], "|"), strings.Split(agg[0], "|")
		for i := range c {
			if !closeEnough(c[i], a[i]) {
				t.Fatalf("%s (%s) WHERE %s:\ncells %v\nagg   %v", s.Name, s.DType, where, c, a)
			}
		}
	}
}

func TestAgg_groupedAgreesWithGroupBy(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	path, sets := writeAggFile(t, rng)
	db, _ := openDB(t, map[string]string{"f": path})
	for q := 0; q < 100; q++ {
		s := sets[rng.IntN(len(sets))].spec
		var by []string
		for _, d := range s.DimNames {
			if rng.IntN(2) == 0 {
				by = append(by, d)
			}
		}
		if len(by) == 0 {
			by = s.DimNames[:1]
		}
		where := "1"
		for k := rng.IntN(3); k > 0; k-- {
			where += " AND " + aggTerm(rng, s)
		}
		keys := strings.Join(by, ", ")
		cells := rowsOf(t, db, fmt.Sprintf("SELECT %s, count(value), count(*)-count(value), total(value), min(value), max(value) FROM f.%s WHERE %s GROUP BY %s ORDER BY %s", keys, s.Name, where, keys, keys))
		agg := rowsOf(t, db, fmt.Sprintf("SELECT %s, count, null_count, coalesce(sum, 0.0), min, max FROM f.%s_agg('%s') WHERE %s ORDER BY %s", keys, s.Name, keys, where, keys))
		if len(cells) != len(agg) {
			t.Fatalf("%s by %s WHERE %s: %d groups, want %d\n%v\n%v", s.Name, keys, where, len(agg), len(cells), agg, cells)
		}
		for r := range cells {
			c, a := strings.Split(cells[r], "|"), strings.Split(agg[r], "|")
			for i := range c {
				if !closeEnough(c[i], a[i]) {
					t.Fatalf("%s by %s WHERE %s row %d:\ncells %v\nagg   %v", s.Name, keys, where, r, c, a)
				}
			}
		}
	}
}

func TestAgg_contractExamplesAndErrors(t *testing.T) {
	t.Parallel()
	db, sess := openDB(t, map[string]string{"st": writeStations(t), "s": ref("sample.tet")})
	// temp = time*100 + station over 30 days × 5 stations.
	if got := rowsOf(t, db, "SELECT count, null_count, sum, mean, min, max, var FROM s.temperature_agg"); got[0] != "6|0|21|3.5|1|6|2.9166666666666665" {
		t.Errorf("sample: %v", got)
	}
	got := rowsOf(t, db, "SELECT time, time_label, station, mean, std, count FROM st.temp_agg('time') WHERE station BETWEEN 1 AND 3 AND time < 2")
	if strings.Join(got, ",") != "0|2024-01-01|<nil>|2|0.816496580927726|3,1|2024-01-02|<nil>|102|0.816496580927726|3" {
		t.Errorf("grouped by time: %v", got)
	}
	got = rowsOf(t, db, "SELECT station_label, max FROM st.temp_agg('station') WHERE time >= 5 ORDER BY max DESC LIMIT 2")
	if strings.Join(got, ",") != "Bodo|2904,Alta|2903" {
		t.Errorf("grouped by station: %v", got)
	}
	got = rowsOf(t, db, "SELECT station_label, count FROM st.temp_agg WHERE station_label IN ('Alta', 'Oslo')")
	// The IN list is read whole: one row over both stations.
	wantIN := "<nil>|60"
	if strings.Join(got, ",") != wantIN {
		t.Errorf("IN: %v, want %s", got, wantIN)
	}
	if got = rowsOf(t, db, "SELECT count, sum, mean FROM st.temp_agg WHERE time > 100"); got[0] != "0|<nil>|<nil>" {
		t.Errorf("empty selection: %v", got)
	}
	if got = rowsOf(t, db, "SELECT count(*) FROM st.temp_agg('time') WHERE time > 100"); got[0] != "0" {
		t.Errorf("empty grouped selection: %v", got)
	}
	sess.TakeScans()
	rowsOf(t, db, "SELECT sum FROM st.temp_agg WHERE time = 3")
	if sc := sess.TakeScans(); len(sc) != 1 || sc[0].ChunksDecoded != 3 || sc[0].Elements != 5 || sc[0].Rows != 1 {
		t.Errorf("stats: %+v", sc)
	}
	if _, err := db.Query("SELECT * FROM st.temp_agg('nope')"); err == nil || !strings.Contains(err.Error(), `unknown dim "nope"`) {
		t.Errorf("bad by: %v", err)
	}
	if got = rowsOf(t, db, "SELECT count(*) FROM st.tet_datasets"); got[0] != "2" {
		t.Errorf("datasets: %v", got)
	}
}

// TestAgg_evictingFolds folds a 512×512 f32 grid of 64 raw 16 KiB chunks
// with a 32 KiB eviction window, so that most chunks' pages are dropped
// while the other worker still folds its neighbours, and checks that
// whole, slab and grouped results still match the cells table.
func TestAgg_evictingFolds(t *testing.T) {
	const n = 512
	data := make([]byte, 4*n*n)
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < len(data); i += 4 {
		binary.LittleEndian.PutUint32(data[i:], math.Float32bits(float32(rng.NormFloat64())))
	}
	path := filepath.Join(t.TempDir(), "grid.tet")
	w, _ := tetcore.Create(path)
	spec := tetcore.DatasetSpec{Name: "grid", DType: tetcore.F32, Shape: []int64{n, n}, ChunkShape: []int64{64, 64}, DimNames: []string{"y", "x"}}
	if err := w.AddDataset(spec); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteDataset(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	db, sess := openDB(t, map[string]string{"f": path})
	sess.Registry.SetEvictWindow(32<<10, 16<<10)
	for round := range 3 {
		for _, where := range []string{"1", "y BETWEEN 100 AND 400", "x < 300 AND y > 17"} {
			cells := rowsOf(t, db, "SELECT count(value), total(value), min(value), max(value) FROM f.grid WHERE "+where)
			agg := rowsOf(t, db, "SELECT count, sum, min, max FROM f.grid_agg WHERE "+where)
			c, a := strings.Split(cells[0], "|"), strings.Split(agg[0], "|")
			for i := range c {
				if !closeEnough(c[i], a[i]) {
					t.Fatalf("round %d WHERE %s: cells %v, agg %v", round, where, c, a)
				}
			}
		}
		grouped := rowsOf(t, db, "SELECT y, sum FROM f.grid_agg('y') WHERE x >= 5 ORDER BY y")
		want := rowsOf(t, db, "SELECT y, total(value) FROM f.grid WHERE x >= 5 GROUP BY y ORDER BY y")
		if len(grouped) != n || len(want) != n {
			t.Fatalf("round %d: %d grouped rows, %d GROUP BY rows", round, len(grouped), len(want))
		}
		for i := range want {
			g, w := strings.Split(grouped[i], "|"), strings.Split(want[i], "|")
			if g[0] != w[0] || !closeEnough(g[1], w[1]) {
				t.Fatalf("round %d, row %d: agg %v, GROUP BY %v", round, i, g, w)
			}
		}
	}
}
