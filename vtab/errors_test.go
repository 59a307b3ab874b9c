package vtab_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

func TestErrors_badTableDeclarations(t *testing.T) {
	t.Parallel()
	db, _ := openDB(t, nil)
	sample, _ := filepath.Abs(ref("sample.tet"))
	cases := []struct{ sql, want string }{
		{"CREATE VIRTUAL TABLE x USING tet('" + sample + "', cells, 'nope')", `dataset "nope": not found`},
		{"CREATE VIRTUAL TABLE x USING tet('" + sample + "', cells)", "needs a dataset name"},
		{"CREATE VIRTUAL TABLE x USING tet('" + sample + "', bogus)", `unknown kind "bogus"`},
		{"CREATE VIRTUAL TABLE x USING tet('" + sample + "')", "need a file path and a table kind"},
		{"CREATE VIRTUAL TABLE x USING tet('/no/such/file.tet', tet_file)", "no such file"},
		{"CREATE VIRTUAL TABLE x USING tet('" + sample + "', tet_file, 'extra')", "takes no dataset"},
		{"CREATE VIRTUAL TABLE x USING tet('" + sample + "', cells, temperature, session=abc)", "session argument is not accepted"},
	}
	for _, tc := range cases {
		_, err := db.Exec(tc.sql)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want error containing %q", tc.sql, err, tc.want)
		}
	}
}

func TestErrors_readOnly(t *testing.T) {
	t.Parallel()
	db, _ := openDB(t, map[string]string{"s": ref("sample.tet")})
	for _, q := range []string{
		"INSERT INTO s.temperature VALUES (0, 0, 1)",
		"UPDATE s.temperature SET value = 0",
		"DELETE FROM s.temperature",
		"DELETE FROM s.tet_chunks",
	} {
		_, err := db.Exec(q)
		if err == nil || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("%s: %v", q, err)
		}
	}
	if got := rowsOf(t, db, "SELECT sum(value) FROM s.temperature"); got[0] != "21" {
		t.Errorf("sum after refused writes: %v", got)
	}
}

func TestErrors_chunkFailsToDecodeMidQuery(t *testing.T) {
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
		raw[i] ^= 0x5a // corrupt chunk [2 0]'s frame after its magic
	}
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	db, sess := openDB(t, map[string]string{"b": path})
	for _, q := range []string{"SELECT sum(value) FROM b.z", "SELECT count(*) FROM b.z", "SELECT d0, value FROM b.z"} {
		sess.TakeError()
		rows, err := db.Query(q)
		if err == nil {
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		// SQLite drops xNext's message (count(*) reads no column), so the
		// session keeps the real error for the driver to report.
		serr := sess.TakeError()
		for _, e := range []error{err, serr} {
			if e == nil || !strings.Contains(e.Error(), `"z"`) || !strings.Contains(e.Error(), "[2 0]") {
				if e != err || !strings.Contains(q, "count") {
					t.Errorf("%s: got %v (session: %v), want an error naming dataset z and chunk [2 0]", q, err, serr)
				}
			}
		}
		if err == nil {
			t.Errorf("%s: no error", q)
		}
	}
	if got := rowsOf(t, db, "SELECT count(*), sum(value) FROM b.z WHERE d0 <> 2 AND d0 IN (0, 1, 3)"); got[0] != "300|0" {
		t.Errorf("later statement: %v", got)
	}
}
