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
		// The format's own table (the file's "tables" section): declared
		// types, values of every type, rowids in order, a join.
		"SELECT group_concat(name || ' ' || type, ', ') FROM pragma_table_info('mem_notes', 'm')": "k TEXT, n INTEGER, x REAL, b BLOB",
		"SELECT rowid, k, n, x, hex(b), typeof(n), typeof(x), typeof(b) FROM m.mem_notes": "0|a|1|0.5|00FF|integer|real|blob " +
			"1|b|<nil>|-2||null|integer|null 2|t|9007199254740993|1000||integer|real|blob",
		"SELECT d.dtype, n.n FROM m.tet_datasets d JOIN m.mem_notes n ON n.k = d.name": "f32|9007199254740993",
		"SELECT count(*) FROM m.mem_notes WHERE n > 1":                                 "1",
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

// attachMem writes a memformat file holding body (the JSON after the
// magic line) and runs SetupSQL for it as schema m on a fresh
// one-connection database; setupErr is the error of the first statement
// that failed (the rest are not run).
func attachMem(t *testing.T, body string) (db *sql.DB, sess *vtab.Session, path string, setupErr error) {
	t.Helper()
	reg := scan.NewRegistry([]array.Format{tetcore.Format, memformat.Format})
	sess = vtab.NewSession(reg)
	db = sql.OpenDB(vtab.Connector{Name: ":memory:", Session: sess})
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	path = filepath.Join(t.TempDir(), "f.memarray")
	if err := os.WriteFile(path, []byte(memformat.Magic+body), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := reg.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, s := range vtab.SetupSQL("m", path, h.Source(), sess) {
		if _, err := db.Exec(s); err != nil {
			return db, sess, path, err
		}
	}
	return db, sess, path, nil
}

// memArrays is a "arrays" section with one small dataset per name.
func memArrays(names ...string) string {
	var parts []string
	for _, n := range names {
		parts = append(parts, `{"name": "`+n+`", "dtype": "u8", "shape": [2], "chunk_shape": [2], "values": [1, 2]}`)
	}
	return `"arrays": [` + strings.Join(parts, ", ") + `]`
}

// TestFormats_formatTableNames: format tables are named right after the
// fixed metadata tables, so a dataset (or companion) of the same name
// gets "_2" as with any taken name; tet_datasets shows the result, and
// every table answers under its name.
func TestFormats_formatTableNames(t *testing.T) {
	db, _, path, err := attachMem(t, `{`+memArrays("Mem_Notes", "x", "y_agg")+`, "tables": [
		{"name": "mem_notes", "columns": [["k", "TEXT"]], "rows": [["n1"]]},
		{"name": "x_agg", "columns": [["v", "INTEGER"]], "rows": [[5], [6]]}]}`)
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"SELECT group_concat(name || ':' || table_name || ':' || ifnull(agg_table, '-'), ' ') FROM m.tet_datasets": "Mem_Notes:Mem_Notes_2:Mem_Notes_2_agg x:x:x_agg_2 y_agg:y_agg:y_agg_agg",
		"SELECT group_concat(k) FROM m.mem_notes": "n1",
		"SELECT sum(v) FROM m.x_agg":              "11",
		"SELECT sum(value) FROM m.Mem_Notes_2":    "3",
		"SELECT sum, count FROM m.x_agg_2":        "3|2",
		"SELECT count(*) FROM m.sqlite_schema":    "15", // 7 fixed, 2 format, 3 cells, 3 companions
		"SELECT count(*) FROM m.tet_file":         "1",
		"SELECT sql LIKE '%USING tet(%, format_table, ''x_agg'')' FROM m.sqlite_schema WHERE name = 'x_agg'": "1",
	} {
		if got := strings.Join(rowsOf(t, db, q), " "); got != want {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
	// Declared by hand too, under any name; a name the file lacks is an
	// error listing the ones it has, and the argument parsing is strict.
	p := "'" + path + "'"
	if _, err := db.Exec("CREATE VIRTUAL TABLE temp.notes USING tet(" + p + ", format_table, 'mem_notes')"); err != nil {
		t.Fatal(err)
	}
	if got := rowsOf(t, db, "SELECT k FROM temp.notes"); len(got) != 1 || got[0] != "n1" {
		t.Errorf("hand-declared format table: %v", got)
	}
	sample, _ := filepath.Abs(ref("sample.tet"))
	for q, want := range map[string]string{
		"CREATE VIRTUAL TABLE temp.a USING tet(" + p + ", format_table, 'MEM_NOTES')":          `has no format table "MEM_NOTES" (it has: mem_notes, x_agg)`,
		"CREATE VIRTUAL TABLE temp.a USING tet('" + sample + "', format_table, 'mem_notes')":   `the tet file ` + sample + ` has no format table "mem_notes" (it has: none)`,
		"CREATE VIRTUAL TABLE temp.a USING tet(" + p + ", format_table)":                       "kind format_table needs the name of one of the format's tables; usage:",
		"CREATE VIRTUAL TABLE temp.a USING tet(" + p + ", format_table, 'x_agg', 'mem_notes')": "kind format_table needs the name",
		"CREATE VIRTUAL TABLE temp.a USING tet(" + p + ", format_table, dataset_id=0)":         "kind format_table needs the name",
	} {
		if _, err := db.Exec(q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", q, err, want)
		}
	}
}

// TestFormats_formatTableRows: a failure of the format while listing
// rows fails the statement with its text; so does a row the contract
// does not allow (a wrong length, a value of another type), and a table
// larger than the memory limit. The other tables keep working.
func TestFormats_formatTableRows(t *testing.T) {
	db, sess, path, err := attachMem(t, `{`+memArrays("d")+`, "tables": [
		{"name": "ok", "columns": [["s", "TEXT"]], "rows": [["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], ["b"]]},
		{"name": "broken", "columns": [["s", "TEXT"]], "rows": [["x"]], "error": "index frame 3 damaged"},
		{"name": "short", "columns": [["s", "TEXT"], ["n", "INTEGER"]], "rows": [["x", 1], ["y"]]},
		{"name": "typed", "columns": [["b", "INTEGER"]], "rows": [[1], [true]]}]}`)
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"SELECT * FROM m.broken":         "tet: m.broken: " + path + ": format table broken: index frame 3 damaged",
		"SELECT count(*) FROM m.short":   "format table short: row 1: 1 values for 2 columns",
		"SELECT * FROM m.typed":          "format table typed: row 1: column 0: a bool value (want nil, int64, float64, string or []byte)",
		"SELECT * FROM m.ok, m.broken":   "index frame 3 damaged",
		"SELECT count(*) FROM m.broken ": "format table broken: index frame 3 damaged",
	} {
		if err := queryErr(db, q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", q, err, want)
		}
	}
	if got := strings.Join(rowsOf(t, db, "SELECT s FROM m.ok ORDER BY s"), " "); got != "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b" {
		t.Errorf("m.ok: %q", got)
	}
	sess.MemLimit = 150 // one row fits (119 B), the two do not (176 B, rounded up to 2 × 89)
	err = queryErr(db, "SELECT * FROM m.ok")
	if err == nil || !strings.Contains(errText(err, sess), "tet: m.ok: listing needs 178 B for 2 rows, above the memory limit of 150 B") {
		t.Errorf("two rows under 150 B: %v", err)
	}
	sess.MemLimit = 0
	if got := rowsOf(t, db, "SELECT count(*) FROM m.ok"); got[0] != "2" {
		t.Errorf("count under the default limit: %v", got)
	}
}

// TestFormats_formatTableNamesRefused: a format table the SQL layer
// cannot create under its name fails the attach with the reason (see
// docs/SQL.md, "Format-specific tables"); nothing of it is created.
func TestFormats_formatTableNamesRefused(t *testing.T) {
	table := func(name, cols string) string {
		return `{"name": "` + name + `", "columns": ` + cols + `, "rows": []}`
	}
	col := `[["c", "TEXT"]]`
	for _, tc := range []struct{ tables, want string }{
		{table("tet_file", col), `format table 0 ("tet_file"): the prefix tet_ belongs to the metadata tables every format gets`},
		{table("TET_extra", col), `the prefix tet_ belongs`},
		{table("sqlite_x", col), `format table 0 ("sqlite_x"): the prefix sqlite_ is reserved by SQLite`},
		{table("", col), `format table 0 (""): a table name must be non-empty and hold no NUL byte`},
		{table(`a\u0000b`, col), `a table name must be non-empty and hold no NUL byte`},
		{table("a", col) + ", " + table("A", col), `format table 1 ("A"): two format tables have this name (ignoring case)`},
		{table("a", `[]`), `a table needs columns and a rows function`},
		{table("a", `[["c", "TEXT"], ["C", "REAL"]]`), `column 1 ("C"): a column name must be non-empty`},
		{table("a", `[["", "TEXT"]]`), `column 0 (""): a column name must be non-empty`},
		{table("a", `[["c", "VARCHAR"]]`), `column "c": type "VARCHAR" is none of INTEGER, REAL, TEXT, BLOB`},
	} {
		db, _, path, err := attachMem(t, `{`+memArrays("d")+`, "tables": [`+tc.tables+`]}`)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want an error naming the file and saying %q", tc.tables, err, tc.want)
			continue
		}
		// The fixed metadata tables came first; no format or dataset
		// table was created after the refusal.
		if got := rowsOf(t, db, "SELECT count(*) FROM m.sqlite_schema"); got[0] != "7" {
			t.Errorf("%s: %v tables after the refusal", tc.tables, got)
		}
	}
}

// TestFormats_tetHasNoFormatTables: a .tet file gets the fixed metadata
// tables and its datasets' tables, nothing else.
func TestFormats_tetHasNoFormatTables(t *testing.T) {
	t.Parallel()
	db, _ := openDB(t, map[string]string{"s": ref("sample.tet")})
	got := rowsOf(t, db, "SELECT count(*), sum(sql LIKE '%format_table%') FROM s.sqlite_schema")
	want := rowsOf(t, db, "SELECT (7 + (SELECT count(*) FROM s.tet_datasets) + (SELECT count(agg_table) FROM s.tet_datasets)) || '|0'")
	if got[0] != want[0] {
		t.Errorf("tables of sample.tet: %v, want %v", got, want)
	}
}
