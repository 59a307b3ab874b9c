package vtab_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/memformat"
	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// TestFormats_memformatThroughEveryTable: a second format is one more
// entry in the registry's list. A memformat file (chosen by its first
// bytes, whatever its name) gets every table, whose rows agree with its
// values: metadata, cells (dims, labels, values of every dtype) and
// aggregates (which agree with the cells table, i8 included).
func TestFormats_memformatThroughEveryTable(t *testing.T) {
	reg := scan.NewRegistry([]array.Format{tetcore.Format, memformat.Format})
	sess := vtab.NewSession(reg)
	db := sql.OpenDB(vtab.Connector{Name: ":memory:", Session: sess})
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	path, _ := filepath.Abs("../internal/memformat/testdata/sample.memarray")
	h, err := reg.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range vtab.SetupSQL("m", path, h.Source(), sess) {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	h.Close()
	for q, want := range map[string]string{
		"SELECT size, layout_version, footer, dataset_count FROM m.tet_file":                       "<nil>|<nil>|<nil>|6",
		"SELECT group_concat(name || ':' || dtype || ':' || chunk_count, ' ') FROM m.tet_datasets": "t:f32:2 grid/ramp:i16:9 u64:u64:2 i8:i8:3 half:f16:4 empty:f64:0",
		"SELECT count(*), sum(raw_byte_len) FROM m.tet_chunks WHERE dataset = 'grid/ramp'":         "8|58",
		"SELECT group_concat(key || '=' || value) FROM m.tet_attrs WHERE dataset IS NULL":          "source=hand-written,title=memformat sample",
		"SELECT group_concat(y_label || value, ' ') FROM m.t WHERE x = 0":                          "a1.0 b4.5",
		"SELECT count(*), sum(value) FROM m.t":                                                     "6|-Inf",
		"SELECT group_concat(value, ' ') FROM m.u64":                                               "0 1 9007199254740993 1.8446744073709552e+19",
		"SELECT group_concat(value, ' ') FROM m.i8":                                                "-128 0 127",
		"SELECT count, sum, min, max FROM m.i8_agg":                                                "3|-1|-128|127",
		"SELECT sum(value), count(*) FROM m.half":                                                  "28|8",
		"SELECT sum, count FROM m.half_agg":                                                        "28|8",
		"SELECT count(*) FROM m.empty":                                                             "0",
		"SELECT row, sum FROM m.\"grid/ramp_agg\"('row') WHERE row < 2 ORDER BY row":               "0|21 1|70",
		"SELECT sum(value) FROM m.\"grid/ramp\" WHERE row < 2":                                     "91",
	} {
		got := strings.Join(rowsOf(t, db, q), " ")
		if got != want {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
	// The missing chunk (id 4: rows 2-3, columns 6) fails both tables.
	for _, q := range []string{`SELECT sum(value) FROM m."grid/ramp"`, `SELECT sum FROM m."grid/ramp_agg"`} {
		if _, err := db.Exec(q); err == nil || !strings.Contains(err.Error(), "chunk not present") {
			t.Errorf("%s: %v, want a missing chunk", q, err)
		}
	}
}

// TestFormats_tetListsStoredChunks: .tet arrays list their stored chunks
// from the index (array.ChunkLister), so that metadata tables of a file
// declaring a huge sparse grid never walk the grid.
func TestFormats_tetListsStoredChunks(t *testing.T) {
	reg := scan.NewRegistry(formats)
	h, err := reg.Open(ref("sample.tet"))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, a := range h.Source().Arrays() {
		if _, ok := a.Array.(array.ChunkLister); !ok {
			t.Errorf("%s: %T is not a array.ChunkLister", a.Info().Name, a.Array)
		}
	}
}

// TestFormats_rank0: a 0-d array is one element with no axis columns in
// the cells and _agg tables, whose every query agrees with the value, and
// the metadata tables show its file geometry (ndim 0, shape []).
func TestFormats_rank0(t *testing.T) {
	reg := scan.NewRegistry([]array.Format{memformat.Format})
	sess := vtab.NewSession(reg)
	db := sql.OpenDB(vtab.Connector{Name: ":memory:", Session: sess})
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	path := filepath.Join(t.TempDir(), "scalar.memarray")
	body := memformat.Magic + `{"arrays": [{"name": "s", "dtype": "f64", "shape": [], "chunk_shape": [], "values": [-3.25]},
		{"name": "n", "dtype": "i16", "shape": [], "chunk_shape": [], "values": [7]}]}`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := reg.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range vtab.SetupSQL("m", path, h.Source(), sess) {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	h.Close()
	for q, want := range map[string]string{
		"SELECT * FROM m.s":                                 "-3.25",
		"SELECT rowid, value FROM m.s":                      "0|-3.25",
		"SELECT count(*), sum(value) FROM m.s":              "1|-3.25",
		"SELECT count(*) FROM m.s WHERE value > 0":          "0",
		"SELECT count(*) FROM m.s WHERE value < 0":          "1",
		"SELECT value FROM m.s ORDER BY value DESC LIMIT 3": "-3.25",
		"SELECT * FROM m.n":                                 "7",
		"SELECT count, sum, min, max, median FROM m.s_agg":  "1|-3.25|-3.25|-3.25|-3.25",
		"SELECT count FROM m.s_agg WHERE value > 0":         "0",
		"SELECT count, sum FROM m.n_agg('')":                "1|7",
		"SELECT ndim, shape, chunk_shape, grid_shape, element_count, chunk_count FROM m.tet_datasets WHERE name = 's'": "0|[]|[]|[]|1|1",
		"SELECT count(*) FROM m.tet_dims":                                    "0",
		"SELECT coords, start, extent FROM m.tet_chunks WHERE dataset = 's'": "[]|[]|[]",
		"SELECT group_concat(name) FROM pragma_table_info('s', 'm')":         "value",
	} {
		got := strings.Join(rowsOf(t, db, q), " ")
		if got != want {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
	if _, err := db.Exec("SELECT * FROM m.s_agg('d0')"); err == nil || !strings.Contains(err.Error(), "unknown dim") {
		t.Errorf("grouping a 0-d array by an axis: %v, want unknown dim", err)
	}
}
