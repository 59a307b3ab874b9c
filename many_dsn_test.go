package tetsql_test

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/tetsql/tetsql"
)

// TestParseDSN_glob: a path with a glob metacharacter is a glob, with or
// without an alias; on_error takes skip or fail, nothing else.
func TestParseDSN_glob(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	literal := filepath.Join(dir, "a[1].tet") // exists: a file, not a pattern
	if err := os.WriteFile(literal, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	type file struct {
		Alias, Path string
		Glob        bool
	}
	for _, tc := range []struct {
		dsn   string
		files []file
		skip  bool
		err   string
	}{
		{dsn: "era5/**/*.tet", files: []file{{"", "era5/**/*.tet", true}}},
		{dsn: "e=era5/year=*/*.tet?on_error=skip", files: []file{{"e", "era5/year=*/*.tet", true}}, skip: true},
		{dsn: "a.tet;g=x/*.b2nd?on_error=fail", files: []file{{"", "a.tet", false}, {"g", "x/*.b2nd", true}}},
		{dsn: "d/[ab].tet?on_error=SKIP", files: []file{{"", "d/[ab].tet", true}}, skip: true},
		{dsn: `d/a\[1\].tet`, files: []file{{"", `d/a\[1\].tet`, true}}},
		{dsn: literal, files: []file{{"", literal, false}}},
		{dsn: "demo.tet", files: []file{{"", "demo.tet", false}}},
		{dsn: "x/*.tet?on_error=ignore", err: `on_error="ignore": want skip or fail`},
		{dsn: "x/*.tet?on_error=skip&on_error=fail", err: "on_error given 2 times"},
		{dsn: "x/*.tet?on_eror=skip", err: "on_error"}, // the known options are listed
	} {
		cfg, err := tetsql.ParseDSN(tc.dsn)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseDSN(%q) error %v, want one containing %q", tc.dsn, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseDSN(%q): %v", tc.dsn, err)
			continue
		}
		var got []file
		for _, f := range cfg.Files {
			got = append(got, file{f.Alias, f.Path, f.IsGlob()})
		}
		if !reflect.DeepEqual(got, tc.files) || cfg.OnErrorSkip != tc.skip {
			t.Errorf("ParseDSN(%q) = %+v skip=%v, want %+v skip=%v", tc.dsn, got, cfg.OnErrorSkip, tc.files, tc.skip)
		}
	}
}

// TestGlobAlias: a glob's schema is named after its fixed directory;
// with none, after the working directory.
func TestGlobAlias(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ pattern, want string }{
		{"era5/**/*.tet", "era5"},
		{"testdata/many/year=*/month=*/*.tet", "many"},
		{"/data/era5.v2/*/*.tet", "era5_v2"},
		{"/data/year=2024/*.tet", "year_2024"},
		{"/data/2024/*.tet", "t_2024"},
		{"/data/x/../era5/*.tet", "era5"},
		{"/data/été/*.tet", "_t_"},
		{"/*.tet", "root"},
		{"*.tet", tetsql.DefaultAlias(".")},
		{"**/*.tet", filepath.Base(wd)},
		{"./*/x.tet", filepath.Base(wd)},
	} {
		if got := tetsql.GlobAlias(tc.pattern); got != tc.want {
			t.Errorf("GlobAlias(%q) = %q, want %q", tc.pattern, got, tc.want)
		}
	}
}

// TestAliases_glob: a glob and a file that derive the same name get
// _2 like two files do; an explicit alias is kept.
func TestAliases_glob(t *testing.T) {
	t.Parallel()
	cfg := tetsql.Config{Files: []tetsql.FileSpec{
		{Path: "/data/era5/*.tet"}, {Path: "/other/era5.tet"}, {Alias: "m", Path: "/x/*/*.tet"}, {Path: "/y/m/*.tet"},
	}}
	got, err := cfg.Aliases()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"era5", "era5_2", "m", "m_2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Aliases = %q, want %q", got, want)
	}
}

// TestGlob_noMatch: a glob that matches no file fails the connection
// with an error naming the pattern.
func TestGlob_noMatch(t *testing.T) {
	t.Parallel()
	pattern := filepath.ToSlash(t.TempDir()) + "/**/*.tet"
	db, err := sql.Open("tetsql", pattern)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Ping()
	if err == nil || !strings.Contains(err.Error(), "no file matches "+pattern) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Ping over an empty glob: %v, want an error naming %s (fs.ErrNotExist)", err, pattern)
	}
}

// warnings collects Config.Warn lines.
type warnings struct {
	mu    sync.Mutex
	lines []string
}

func (w *warnings) warn(msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines = append(w.lines, msg)
}

func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.lines
	w.lines = nil
	return out
}

// TestGlob_unreadable: a file the glob matches that is not an array
// file fails the connection naming it, or, with on_error=skip, is
// reported once to Config.Warn; a glob of nothing but such files fails
// either way.
func TestGlob_unreadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range []string{"a.tet", "b.tet"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("not an array file"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pattern := filepath.ToSlash(dir) + "/*.tet"
	for _, skip := range []bool{false, true} {
		var w warnings
		c, err := tetsql.NewConnector(tetsql.Config{Files: []tetsql.FileSpec{{Path: pattern}}, OnErrorSkip: skip, Warn: w.warn})
		if err != nil {
			t.Fatal(err)
		}
		db := sql.OpenDB(c)
		err = db.Ping()
		db.Close()
		lines := w.take()
		if !skip {
			if err == nil || !strings.Contains(err.Error(), dir+"/a.tet") {
				t.Errorf("on_error=fail: %v, want an error naming %s/a.tet", err, dir)
			}
			if len(lines) != 0 {
				t.Errorf("on_error=fail warned %q", lines)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "none of the 2 files") || !strings.Contains(err.Error(), pattern) {
			t.Errorf("on_error=skip, no readable file: %v, want an error naming %s", err, pattern)
		}
		if len(lines) != 2 || !strings.Contains(lines[0], dir+"/a.tet") || !strings.Contains(lines[1], dir+"/b.tet") {
			t.Errorf("on_error=skip warned %q, want one line per file", lines)
		}
	}
}

// TestGlob_connectorCached: the connector lists a glob once; a file
// with a new dataset appearing later gives later connections no new
// table. A skipped file is warned about when the first connection is
// set up, and not again for the second.
// Needs the tet_many module.
func TestGlob_connectorCached(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	copyPath(t, "testdata/many/year=2024/month=01/era5.tet", filepath.Join(dir, "year=2024/month=01/era5.tet"))
	if err := os.WriteFile(filepath.Join(dir, "year=2024/bad.tet"), []byte("not an array file"), 0o644); err != nil {
		t.Fatal(err)
	}
	var w warnings
	c, err := tetsql.NewConnector(tetsql.Config{Files: []tetsql.FileSpec{{Alias: "g", Path: filepath.ToSlash(dir) + "/**/*.tet"}},
		OnErrorSkip: true, Warn: w.warn})
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	defer db.Close()
	ctx := context.Background()
	first, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	lines := w.take()
	if len(lines) == 0 {
		t.Error("no warning after the first connection")
	}
	for _, l := range lines {
		if !strings.Contains(l, "skipped "+filepath.ToSlash(dir)+"/year=2024/bad.tet") {
			t.Errorf("warning %q does not name bad.tet", l)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "year=2025/month=01"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeGrids(t, filepath.Join(dir, "year=2025/month=01/era5.tet"), grid{name: "tp", shape: [2]int64{2, 2}, chunks: [2]int64{2, 2}})
	second, err := db.Conn(ctx) // the first is held: a new connection
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	for i, conn := range []*sql.Conn{first, second} {
		var tables []string
		rows, err := conn.QueryContext(ctx, "SELECT name FROM g.sqlite_schema WHERE type = 'table' ORDER BY name")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			tables = append(tables, n)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		if want := []string{"t2m", "t2m_agg"}; !reflect.DeepEqual(tables, want) {
			t.Errorf("connection %d: tables %q, want %q (the datasets found at the first connection)", i+1, tables, want)
		}
	}
	if lines := w.take(); len(lines) != 0 {
		t.Errorf("the second connection repeated warnings: %q", lines)
	}
}

// TestGlob_badPattern: a malformed glob fails the connection with the
// reason, naming the pattern.
func TestGlob_badPattern(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ pattern, want string }{
		{"data/[.tet", "syntax error in pattern"},
		{"/**/**/**/**/**/x.tet", "more than 4 `**` segments"},
		{"data/a**/x.tet", "must be a whole path segment"},
	} {
		c, err := tetsql.NewConnector(tetsql.Config{Files: []tetsql.FileSpec{{Alias: "g", Path: tc.pattern}}})
		if err != nil {
			t.Fatal(err)
		}
		db := sql.OpenDB(c)
		err = db.Ping()
		db.Close()
		if err == nil || !strings.Contains(err.Error(), tc.pattern) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming it with %q", tc.pattern, err, tc.want)
		}
	}
}

// TestGlobFiles: the files of a glob, sorted, without opening them; a
// bad pattern is an error.
func TestGlobFiles(t *testing.T) {
	t.Parallel()
	got, err := tetsql.GlobFiles("testdata/many/**/*.tet")
	if err != nil {
		t.Fatal(err)
	}
	if want := manyFiles; !reflect.DeepEqual(got, want) {
		t.Errorf("GlobFiles = %q, want %q", got, want)
	}
	if got, err := tetsql.GlobFiles("testdata/many/year=1999/*.tet"); err != nil || len(got) != 0 {
		t.Errorf("GlobFiles of nothing = %q, %v", got, err)
	}
	if _, err := tetsql.GlobFiles("testdata/[.tet"); err == nil {
		t.Error("GlobFiles of a bad pattern: no error")
	}
}
