package vtab_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// inTerm returns a random "col IN (…)" over a dim or label of s, with
// values that miss, repeat, or need affinity.
func randomInTerm(rng *rand.Rand, s tetcore.DatasetSpec) string {
	a := rng.IntN(len(s.Shape))
	var vals []string
	for k := rng.IntN(4) + 1; k > 0; k-- {
		i := rng.Int64N(s.Shape[a] + 2)
		switch r := rng.IntN(10); {
		case s.Labels[a] != nil && r < 5:
			if i < s.Shape[a] {
				vals = append(vals, "'"+s.Labels[a][i]+"'")
			} else {
				vals = append(vals, "'nowhere'")
			}
		case r < 7:
			vals = append(vals, fmt.Sprint(i))
		case r < 8:
			vals = append(vals, fmt.Sprintf("'%d'", i)) // TEXT: numeric affinity on a dim
		case r < 9:
			vals = append(vals, fmt.Sprintf("%d.5", i))
		default:
			vals = append(vals, "NULL")
		}
	}
	if len(vals) > 1 && rng.IntN(3) == 0 {
		vals = append(vals, vals[0]) // duplicate
	}
	col := s.DimNames[a]
	if s.Labels[a] != nil && rng.IntN(2) == 0 {
		col += "_label"
	}
	return col + " IN (" + strings.Join(vals, ", ") + ")"
}

// TestAgg_inListsFoldWhole checks, with random IN lists (and other
// terms), that an aggregate reduces an IN list in one row per group,
// agreeing with the same aggregates over the cells table.
func TestAgg_inListsFoldWhole(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(31, 32))
	path, sets := writeAggFile(t, rng)
	db, _ := openDB(t, map[string]string{"f": path})
	for q := 0; q < 300; q++ {
		s := sets[rng.IntN(len(sets))].spec
		where := randomInTerm(rng, s)
		for k := rng.IntN(3); k > 0; k-- {
			if rng.IntN(2) == 0 {
				where += " AND " + randomInTerm(rng, s)
			} else {
				where += " AND " + aggTerm(rng, s)
			}
		}
		by := ""
		keys := ""
		if rng.IntN(3) == 0 {
			keys = s.DimNames[rng.IntN(len(s.DimNames))]
			by = "('" + keys + "')"
		}
		sel := "count(value), count(*)-count(value), total(value), min(value), max(value)"
		cellsQ := fmt.Sprintf("SELECT %s FROM f.%s WHERE %s", sel, s.Name, where)
		aggQ := fmt.Sprintf("SELECT count, null_count, coalesce(sum, 0.0), min, max FROM f.%s_agg%s WHERE %s", s.Name, by, where)
		if keys != "" {
			cellsQ += " GROUP BY " + keys + " ORDER BY " + keys
			aggQ = fmt.Sprintf("SELECT %s, count, null_count, coalesce(sum, 0.0), min, max FROM f.%s_agg%s WHERE %s ORDER BY %s", keys, s.Name, by, where, keys)
			cellsQ = fmt.Sprintf("SELECT %s, %s FROM f.%s WHERE %s GROUP BY %s ORDER BY %s", keys, sel, s.Name, where, keys, keys)
		}
		cells, agg := rowsOf(t, db, cellsQ), rowsOf(t, db, aggQ)
		if keys == "" && len(agg) == 0 && strings.HasPrefix(cells[0], "0|0|") {
			continue // SQLite proved the WHERE false and never asked the table
		}
		if keys == "" && len(agg) == 1 && strings.HasPrefix(agg[0], "0|0|") && strings.HasPrefix(cells[0], "0|0|") {
			continue // empty selection: one row of NULLs vs count 0
		}
		if len(cells) != len(agg) {
			t.Fatalf("%s\n%s\nagg %v\ncells %v", aggQ, cellsQ, agg, cells)
		}
		for r := range cells {
			c, a := strings.Split(cells[r], "|"), strings.Split(agg[r], "|")
			for i := range c {
				if !closeEnough(c[i], a[i]) {
					t.Fatalf("%s\nrow %d: agg %v, cells %v", aggQ, r, a, c)
				}
			}
		}
	}
}

func TestAgg_inListExamples(t *testing.T) {
	t.Parallel()
	db, sess := openDB(t, map[string]string{"st": writeStations(t)})
	for _, tc := range []struct{ q, want string }{
		{"SELECT station_label, count, sum FROM st.temp_agg WHERE station_label IN ('Alta', 'Oslo')", "<nil>|60|87090"},
		{"SELECT station_label, count FROM st.temp_agg WHERE station_label IN ('Alta', 'nowhere')", "Alta|30"}, // one index: pinned
		{"SELECT count FROM st.temp_agg WHERE station_label IN ('nowhere')", "0"},
		{"SELECT time, count FROM st.temp_agg WHERE time IN (0, 1, 29, 30, NULL)", "<nil>|15"},
		{"SELECT station_label, count FROM st.temp_agg('station') WHERE station IN (0, 3) ORDER BY station", "Oslo|30,Alta|30"},
	} {
		if got := strings.Join(rowsOf(t, db, tc.q), ","); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.q, got, tc.want)
		}
	}
	sess.TakeScans()
	rowsOf(t, db, "SELECT sum FROM st.temp_agg WHERE time IN (0, 1)")
	if sc := sess.TakeScans(); len(sc) != 1 || sc[0].Filters != 1 || sc[0].Rows != 1 || sc[0].ChunksDecoded != 3 {
		t.Errorf("one Filter for the whole list: %+v", sc)
	}
}

// TestErrors_nextMessageReachesSQLite: an error raised in xNext carries its message through SQLite itself (count(*)
// reads no column), without the session's help.
func TestErrors_nextMessageReachesSQLite(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "bad.tet")
	w, _ := tetcore.Create(path)
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "z", DType: tetcore.F64, Shape: []int64{4, 100},
		ChunkShape: []int64{1, 100}, Codec: tetcore.CodecZstd}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteDataset(make([]byte, 4*100*8)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	f, err := tetcore.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	c := f.Datasets[0].Chunks()[2]
	for i := c.Offset + 4; i < c.Offset+uint64(c.StoredLen); i++ {
		raw[i] ^= 0x5a
	}
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	db, _ := openDB(t, map[string]string{"b": path})
	var n int64
	err = db.QueryRow("SELECT count(*) FROM b.z").Scan(&n)
	if err == nil || !strings.Contains(err.Error(), `"z"`) || !strings.Contains(err.Error(), "[2 0]") {
		t.Fatalf("count(*): %v, want the read error naming dataset z and chunk [2 0]", err)
	}
}

// TestLastScan_perConnection: tet_last_scan() reports the scan of its own
// connection, not the latest in the process.
func TestLastScan_perConnection(t *testing.T) {
	t.Parallel()
	db, sess := openDB(t, map[string]string{"st": writeStations(t)})
	db.SetMaxOpenConns(2)
	ctx := context.Background()
	a, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := db.Conn(ctx) // a new connection: attach the file there too
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	path := filepath.Join(t.TempDir(), "st2.tet")
	copyFile(t, writeStations(t), path)
	h, err := sess.Registry.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, s := range vtab.SetupSQL("st", h.Path(), h.Source(), nil) {
		if _, err := b.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	var js sql.NullString
	if err := b.QueryRowContext(ctx, "SELECT tet_last_scan()").Scan(&js); err != nil || js.Valid {
		t.Fatalf("before any scan on b: %v %v", js, err)
	}
	var x float64
	if err := a.QueryRowContext(ctx, "SELECT sum(value) FROM st.temp WHERE time = 3").Scan(&x); err != nil {
		t.Fatal(err)
	}
	if err := b.QueryRowContext(ctx, "SELECT sum(value) FROM st.elev").Scan(&x); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c    *sql.Conn
		want string
	}{{a, `"dataset":"temp"`}, {b, `"dataset":"elev"`}} {
		if err := tc.c.QueryRowContext(ctx, "SELECT tet_last_scan()").Scan(&js); err != nil || !strings.Contains(js.String, tc.want) {
			t.Errorf("tet_last_scan: %v %v, want %s", js.String, err, tc.want)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBind_concurrentConnections runs every kind of table on several
// connections at once (run it with -race), each goroutine on its own.
func TestBind_concurrentConnections(t *testing.T) {
	t.Parallel()
	st := writeStations(t)
	queries := map[string]string{
		"SELECT sum(value), count(*) FROM st.temp":                                                 "217800|150",
		"SELECT group_concat(station_label), NULL FROM st.temp WHERE time = 2":                     "Oslo,Bergen,Tromso,Alta,Bodo|<nil>",
		"SELECT count, sum FROM st.temp_agg WHERE time < 3":                                        "15|1530",
		"SELECT count(*), min(dataset) FROM st.tet_chunks":                                         "",
		"SELECT value, station_label FROM st.temp WHERE time_label = '2024-01-03' AND station = 2": "202|Tromso",
		"SELECT count(*), NULL FROM st.temp WHERE value > 1e9 OR value IN (1, 2)":                  "2|<nil>",
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		db, _ := openDB(t, map[string]string{"st": st, "s": ref("sample.tet")})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 30; i++ {
				for q, want := range queries {
					var a, b any
					if err := db.QueryRow(q).Scan(&a, &b); err != nil {
						t.Error(q, err)
						return
					}
					if bs, ok := a.([]byte); ok {
						a = string(bs)
					}
					if got := fmt.Sprintf("%v|%v", a, b); want != "" && got != want {
						t.Errorf("%s: %v, want %s", q, got, want)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestBind_freesCObjects: closing a database releases every module,
// function, table and cursor object the binding holds for it.
func TestBind_freesCObjects(t *testing.T) {
	before := vtab.BoundObjects()
	db, _ := openDB(t, map[string]string{"st": writeStations(t)})
	rows, err := db.Query("SELECT value FROM st.temp")
	if err != nil {
		t.Fatal(err)
	}
	rows.Next()
	// At least the connection's module and tet_last_scan(), a table and
	// the open cursor.
	if n := vtab.BoundObjects(); n < before+4 {
		t.Errorf("open: %d objects (before: %d)", n, before)
	}
	rows.Close()
	db.Close()
	if n := vtab.BoundObjects(); n != before {
		t.Errorf("closed: %d objects, want %d", n, before)
	}
}
