package vtab_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// writeStations writes temp(time, station) f32 = time*100 + station with
// date and station labels, and elev(station) i32 = 10*station.
func writeStations(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "st.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	days := make([]string, 30)
	for i := range days {
		days[i] = fmt.Sprintf("2024-01-%02d", i+1)
	}
	stations := []string{"Oslo", "Bergen", "Tromso", "Alta", "Bodo"} // not sorted
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.AddDataset(tetcore.DatasetSpec{Name: "temp", DType: tetcore.F32, Shape: []int64{30, 5}, ChunkShape: []int64{7, 2},
		Codec: tetcore.CodecZstd, DimNames: []string{"time", "station"}, Labels: [][]string{days, stations},
		Attrs: map[string]string{"units": "degC"}}))
	must(w.AddDataset(tetcore.DatasetSpec{Name: "elev", DType: tetcore.I32, Shape: []int64{5}, ChunkShape: []int64{2},
		DimNames: []string{"station"}, Labels: [][]string{stations}}))
	temp := make([]byte, 30*5*4)
	for i := 0; i < 30; i++ {
		for s := 0; s < 5; s++ {
			binary.LittleEndian.PutUint32(temp[(i*5+s)*4:], math.Float32bits(float32(i*100+s)))
		}
	}
	must(w.WriteDataset(temp))
	elev := make([]byte, 5*4)
	for s := 0; s < 5; s++ {
		binary.LittleEndian.PutUint32(elev[s*4:], uint32(10*s))
	}
	must(w.WriteDataset(elev))
	must(w.Close())
	return path
}

func TestLabels(t *testing.T) {
	t.Parallel()
	db, sess := openDB(t, map[string]string{"st": writeStations(t)})
	cases := []struct {
		where  string
		want   string
		chunks int64
	}{
		{"time_label = '2024-01-03' AND station_label = 'Tromso'", "202", 1},
		{"station_label IN ('Alta', 'Oslo') AND time = 0", "0,3", 2},
		{"time_label BETWEEN '2024-01-08' AND '2024-01-09' AND station = 4", "704,804", 1},
		{"time_label > '2024-01-29' AND station = 1", "2901", 1},
		{"station_label > 'Oslo' AND time = 1", "102", 3}, // unsorted axis: no pruning, SQLite filters
		{"time_label = '1999-01-01'", "", 0},
		{"time_label = 20240101", "", 15}, // a number: left to SQLite, never equal to TEXT
	}
	for _, tc := range cases {
		got := strings.Join(rowsOf(t, db, "SELECT value FROM st.temp WHERE "+tc.where+" ORDER BY rowid"), ",")
		scans := sess.TakeScans()
		var decoded int64
		for _, s := range scans {
			decoded += s.ChunksDecoded
		}
		if got != tc.want || decoded != tc.chunks {
			t.Errorf("WHERE %s: %q decoding %d chunks, want %q and %d", tc.where, got, decoded, tc.want, tc.chunks)
		}
	}
}

func TestJoins(t *testing.T) {
	t.Parallel()
	db, _ := openDB(t, map[string]string{"st": writeStations(t)})
	// Two datasets joined on the station dim column.
	got := rowsOf(t, db, `SELECT t.station_label, e.value, t.value FROM st.temp t JOIN st.elev e ON e.station = t.station
		WHERE t.time = 2 ORDER BY e.value DESC`)
	want := "Bodo|40|204,Alta|30|203,Tromso|20|202,Bergen|10|201,Oslo|0|200"
	if strings.Join(got, ",") != want {
		t.Errorf("dataset join: %v", got)
	}
	// Cells joined with metadata tables.
	got = rowsOf(t, db, `SELECT d.name, c.label, count(*), max(t.value) FROM st.tet_coords c
		JOIN st.temp t ON t.station = c.idx
		JOIN st.tet_dims d ON d.dataset = c.dataset AND d.name = c.dim
		WHERE c.dataset = 'temp' AND c.dim = 'station' AND c.label IN ('Oslo', 'Bodo')
		GROUP BY c.label ORDER BY c.label`)
	if strings.Join(got, ",") != "station|Bodo|30|2904,station|Oslo|30|2900" {
		t.Errorf("metadata join: %v", got)
	}
	got = rowsOf(t, db, `SELECT a.value, avg(t.value) FROM st.tet_attrs a, st.temp t WHERE a.dataset = 'temp' AND a.key = 'units' AND t.time < 2`)
	if strings.Join(got, ",") != "degC|52" {
		t.Errorf("attrs join: %v", got)
	}
}

func TestDimAffinityMatchesNativeTable(t *testing.T) {
	t.Parallel()
	db, _ := openDB(t, map[string]string{"st": writeStations(t)})
	if _, err := db.Exec("CREATE TEMP TABLE native(id INTEGER PRIMARY KEY, time INTEGER, station INTEGER, value REAL)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO native SELECT rowid, time, station, value FROM st.temp"); err != nil {
		t.Fatal(err)
	}
	for _, where := range []string{
		"time = '3'", "time < ' 2 '", "time >= '28.0'", "time = 'abc'", "time < 'abc'", "time > 'abc'",
		"time = x'01'", "time <= x'01'", "time = 2.0", "time < 2.5", "time = NULL", "time IN ('1', 2, '2e0')",
		"rowid = '7'", "rowid < '3'",
	} {
		a := rowsOf(t, db, "SELECT time, station FROM st.temp WHERE "+where+" ORDER BY 1, 2")
		b := rowsOf(t, db, "SELECT time, station FROM native WHERE "+where+" ORDER BY 1, 2")
		if strings.Join(a, ",") != strings.Join(b, ",") {
			t.Errorf("WHERE %s: vtab %v, native %v", where, a, b)
		}
	}
}
