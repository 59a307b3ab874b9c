package tetsql_test

import (
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// copyPath copies the file or directory (one level: a sparse frame) src
// to dst.
func copyPath(t *testing.T, src, dst string) {
	t.Helper()
	st, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if st.IsDir() {
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		ents, err := os.ReadDir(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			copyPath(t, filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()))
		}
		return
	}
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// fileRow is one row of tet_files as the tests read it.
type fileRow struct {
	Path     string
	Size     int64
	Format   sql.NullString
	Datasets sql.NullInt64
}

func listFiles(t *testing.T, conn *sql.Conn, q string, args ...any) []fileRow {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	out := []fileRow{}
	for rows.Next() {
		var r fileRow
		if err := rows.Scan(&r.Path, &r.Size, &r.Format, &r.Datasets); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// filesTree writes a hive-partitioned tree of .tet files, a b2nd file
// and a b2nd sparse frame (a directory), a file of no format and a
// damaged .tet file; it returns the root.
func filesTree(t *testing.T) string {
	root := t.TempDir()
	g := func(name string) grid { return grid{name: name, shape: [2]int64{4, 3}, chunks: [2]int64{2, 3}} }
	for _, f := range []struct {
		path  string
		grids []grid
	}{
		{"year=2024/month=01/a.tet", []grid{g("t2m"), g("tp")}},
		{"year=2024/month=02/a.tet", []grid{g("t2m")}},
		{"year=2025/month=01/a.tet", []grid{g("t2m"), g("tp"), g("sp")}},
	} {
		p := filepath.Join(root, f.path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeGrids(t, p, f.grids...)
	}
	copyPath(t, "b2nd/testdata/dtype_float32.b2nd", filepath.Join(root, "year=2024/month=03/f.b2nd"))
	copyPath(t, "b2nd/testdata/sparse_frame.b2nd", filepath.Join(root, "year=2024/month=03/s.b2nd"))
	if err := os.WriteFile(filepath.Join(root, "year=2024/notes.tet"), []byte("not an array file"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A .tet file cut short: its magic names the format, opening fails.
	good, err := os.ReadFile(filepath.Join(root, "year=2024/month=02/a.tet"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "year=2025/cut.tet"), good[:len(good)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func size(t *testing.T, p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

func TestTetFiles(t *testing.T) {
	t.Parallel()
	root := filesTree(t)
	_, conn := openConn(t, "demo=testdata/demo.tet")
	s := func(v string) sql.NullString { return sql.NullString{String: v, Valid: v != ""} }
	n := func(v int64) sql.NullInt64 {
		if v < 0 {
			return sql.NullInt64{}
		}
		return sql.NullInt64{Int64: v, Valid: true}
	}
	p := func(rel string) string { return root + "/" + rel }

	got := listFiles(t, conn, "SELECT * FROM tet_files(?) ORDER BY path", root+"/**/*.tet")
	want := []fileRow{
		{p("year=2024/month=01/a.tet"), size(t, p("year=2024/month=01/a.tet")), s("tet"), n(2)},
		{p("year=2024/month=02/a.tet"), size(t, p("year=2024/month=02/a.tet")), s("tet"), n(1)},
		{p("year=2024/notes.tet"), 17, s(""), n(-1)},
		{p("year=2025/cut.tet"), size(t, p("year=2025/cut.tet")), s("tet"), n(-1)},
		{p("year=2025/month=01/a.tet"), size(t, p("year=2025/month=01/a.tet")), s("tet"), n(3)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("**/*.tet:\n got %+v\nwant %+v", got, want)
	}

	// The sparse frame is one file: its directory, with the size of its
	// chunks; the glob's own order is by path without ORDER BY.
	frame := int64(0)
	ents, _ := os.ReadDir(p("year=2024/month=03/s.b2nd"))
	for _, e := range ents {
		frame += size(t, p("year=2024/month=03/s.b2nd/"+e.Name()))
	}
	got = listFiles(t, conn, "SELECT path, size, format, datasets FROM tet_files(?)", root+"/year=*/month=03/*")
	want = []fileRow{
		{p("year=2024/month=03/f.b2nd"), size(t, p("year=2024/month=03/f.b2nd")), s("b2nd"), n(1)},
		{p("year=2024/month=03/s.b2nd"), frame, s("b2nd"), n(1)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("month=03/*:\n got %+v\nwant %+v", got, want)
	}

	ctx := context.Background()
	for _, c := range []struct {
		q    string
		arg  string
		want string
	}{
		// The sparse frame's chunk files are not listed: it is one file.
		{"SELECT count(*) FROM tet_files(?)", root + "/**/*", "7"},
		// A trailing ** lists files only: the frame's chunks.b2frame is
		// listed as a file of its own (b2nd, and it does not open alone).
		{"SELECT count(*) || ',' || sum(datasets) FROM tet_files(?) WHERE path LIKE '%.b2nd%'", root + "/**", "11,1"},
		{"SELECT count(*) FROM tet_files(?)", root + "/**/*.nc", "0"},
		{"SELECT count(*) FROM tet_files(?)", root + "/nowhere/*.tet", "0"},
		{"SELECT group_concat(format || ':' || n, ',') FROM (SELECT format, count(*) n FROM tet_files(?) WHERE format IS NOT NULL GROUP BY format ORDER BY format)", root + "/**/*", "b2nd:2,tet:4"},
		{"SELECT sum(datasets) FROM tet_files(?)", root + "/**/*", "8"},
		{"SELECT pattern FROM tet_files(?) LIMIT 1", root + "/*/*/a.tet", root + "/*/*/a.tet"},
		{"SELECT count(*) FROM tet_files(?) WHERE path LIKE '%month=01%'", root + "/**/a.tet", "2"},
		// A file that does not open (no format, cut short) has NULL
		// datasets; the listing goes on.
		{"SELECT count(*) FROM tet_files(?) WHERE datasets IS NULL", root + "/**/*.tet", "2"},
	} {
		var v string
		if err := conn.QueryRowContext(ctx, c.q, c.arg).Scan(&v); err != nil || v != c.want {
			t.Errorf("%s (%s): %q, %v; want %q", c.q, c.arg, v, err, c.want)
		}
	}

	for _, c := range []struct{ q, arg, want string }{
		{"SELECT * FROM tet_files(?)", "[", "syntax error in pattern"},
		{"SELECT * FROM tet_files(?)", root + "/a**/*", "whole path segment"},
		{"SELECT * FROM tet_files(?)", "", "needs a pattern"},
	} {
		q, args := c.q, []any{c.arg}
		if c.arg == "" {
			q, args = "SELECT * FROM tet_files", nil
		}
		rows, err := conn.QueryContext(ctx, q, args...)
		if err == nil {
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s (%q): %v, want an error saying %q", q, c.arg, err, c.want)
		}
	}
	if _, err := conn.ExecContext(ctx, "CREATE VIRTUAL TABLE temp.f USING tet_files('x')"); err == nil {
		t.Error("CREATE VIRTUAL TABLE … USING tet_files succeeded; it is eponymous-only")
	}
}
