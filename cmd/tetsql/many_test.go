package main

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/tetcore"
)

// TestParseFlags_onError: --on-error takes skip or fail, as --on-error=V
// or --on-error V; the default is fail.
func TestParseFlags_onError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		skip bool
		err  string
	}{
		{args: []string{"SELECT 1"}},
		{args: []string{"--on-error=skip", "SELECT 1"}, skip: true},
		{args: []string{"--on-error", "skip", "SELECT 1"}, skip: true},
		{args: []string{"--on-error", "SKIP", "SELECT 1"}, skip: true},
		{args: []string{"--on-error=fail", "SELECT 1"}},
		{args: []string{"--on-error=skip", "--on-error=fail", "SELECT 1"}}, // the last one counts
		{args: []string{"--on-error=ignore", "SELECT 1"}, err: `--on-error "ignore": want skip or fail`},
		{args: []string{"--on-error"}, err: "--on-error needs a value"},
	} {
		o, err := parseFlags(tc.args)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if o.onErrorSkip != tc.skip {
			t.Errorf("%q: skip %v, want %v", tc.args, o.onErrorSkip, tc.skip)
		}
	}
}

// TestSplitArgs_glob: a glob argument is a file argument, also last;
// SQL with a '*' is not.
func TestSplitArgs_glob(t *testing.T) {
	t.Parallel()
	many := filepath.Join("..", "..", "testdata", "many")
	for _, tt := range []struct {
		args  []string
		files []string // alias=path, or path
		sql   string
	}{
		{[]string{"era5/**/*.tet"}, []string{"era5/**/*.tet"}, ""},
		{[]string{"era5/**/*.tet", "SELECT * FROM t2m"}, []string{"era5/**/*.tet"}, "SELECT * FROM t2m"},
		{[]string{"m=runs/*/out.b2nd"}, []string{"m=runs/*/out.b2nd"}, ""},
		{[]string{"x=runs/*/[ab].tgm"}, []string{"x=runs/*/[ab].tgm"}, ""},
		{[]string{many + "/*"}, []string{many + "/*"}, ""}, // matches: a glob, whatever the extension
		{[]string{"SELECT * FROM t"}, nil, "SELECT * FROM t"},
		{[]string{"SELECT count(*)FROM(t)"}, nil, "SELECT count(*)FROM(t)"},
		{[]string{"nothing/here/*"}, nil, "nothing/here/*"}, // no match, no format's extension
	} {
		var o options
		if err := splitArgs(&o, tt.args); err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, f := range o.files {
			s := f.Path
			if f.Alias != "" {
				s = f.Alias + "=" + s
			}
			files = append(files, s)
		}
		if strings.Join(files, "|") != strings.Join(tt.files, "|") || o.sql != tt.sql {
			t.Errorf("%q: files %q sql %q, want %q %q", tt.args, files, o.sql, tt.files, tt.sql)
		}
	}
}

// writeDays writes a .tet file with dataset t2m: n f32 values base,
// base+1, …, along dim day, two per chunk.
func writeDays(t *testing.T, path string, n int, base float32) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	spec := tetcore.DatasetSpec{Name: "t2m", DType: tetcore.F32, Shape: []int64{int64(n)}, ChunkShape: []int64{2}, DimNames: []string{"day"}}
	if err := w.AddDataset(spec); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(base+float32(i)))
	}
	if err := w.WriteDataset(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// hiveTree writes three monthly files in hive directories and returns
// the root: 2020-01 (3 days from 0), 2020-02 (4 from 10), 2021-01 (5
// from 100).
func hiveTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeDays(t, filepath.Join(root, "year=2020/month=01/x.tet"), 3, 0)
	writeDays(t, filepath.Join(root, "year=2020/month=02/x.tet"), 4, 10)
	writeDays(t, filepath.Join(root, "year=2021/month=01/x.tet"), 5, 100)
	return root
}

// TestRun_glob: a quoted glob argument is one schema over every file:
// counts and sums are the union of the single files', hive keys are
// columns. Needs the tet_many module.
func TestRun_glob(t *testing.T) {
	t.Parallel()
	root := hiveTree(t)
	pattern := filepath.ToSlash(root) + "/**/*.tet"
	for _, tc := range []struct {
		name, sql, want string
	}{
		{"count", "SELECT count(*) AS n FROM t2m", "n\n12\n"},
		{"qualified", "SELECT count(*) AS n FROM " + tetsql.GlobAlias(pattern) + ".t2m", "n\n12\n"}, // the schema is named after the root
		{"distinct year", "SELECT DISTINCT year FROM t2m ORDER BY year", "year\n2020\n2021\n"},
		{"group", "SELECT year, month, count(*) AS n, sum(value) AS s FROM t2m GROUP BY 1, 2 ORDER BY 1, 2",
			"year,month,n,s\n2020,01,3,3.0\n2020,02,4,46.0\n2021,01,5,510.0\n"},
		{"files", "SELECT count(DISTINCT file) AS n FROM t2m", "n\n3\n"},
	} {
		code, out, errs := runCLI(t, "", pattern, tc.sql)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", tc.name, code, errs)
			continue
		}
		if tc.want != "" && out != tc.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, out, tc.want)
		}
	}
	// The union of the single files.
	var total float64
	for _, f := range []string{"year=2020/month=01/x.tet", "year=2020/month=02/x.tet", "year=2021/month=01/x.tet"} {
		code, out, errs := runCLI(t, "", "--mode", "csv", "--no-header", filepath.Join(root, f), "SELECT sum(value) FROM t2m")
		if code != 0 {
			t.Fatalf("%s: %s", f, errs)
		}
		s, err := strconv.ParseFloat(strings.TrimSpace(out), 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", f, out, err)
		}
		total += s
	}
	code, out, errs := runCLI(t, "", "--mode", "csv", "--no-header", "g="+pattern, "SELECT sum(value) FROM g.t2m")
	if s, err := strconv.ParseFloat(strings.TrimSpace(out), 64); code != 0 || err != nil || s != total || total != 559 {
		t.Errorf("sum over the glob: exit %d %q %s, want %v (the files' sums added)", code, out, errs, total)
	}
}

// TestRun_globOnError: a file the glob matches that cannot be read fails
// the run naming it, or with --on-error skip is left out with a warning
// line on stderr.
func TestRun_globOnError(t *testing.T) {
	t.Parallel()
	root := hiveTree(t)
	bad := filepath.Join(root, "year=2021/month=02/x.tet")
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("not an array file at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	pattern := filepath.ToSlash(root) + "/**/*.tet"
	code, _, errs := runCLI(t, "", pattern, "SELECT count(*) AS n FROM t2m")
	if code != 1 || !strings.Contains(errs, filepath.ToSlash(bad)) {
		t.Errorf("on-error fail: exit %d, stderr %q, want an error naming %s", code, errs, bad)
	}
	for _, flag := range [][]string{{"--on-error=skip"}, {"--on-error", "skip"}} {
		args := append(append([]string{}, flag...), pattern, "SELECT count(*) AS n FROM t2m")
		code, out, errs := runCLI(t, "", args...)
		if code != 0 || out != "n\n12\n" {
			t.Errorf("%q: exit %d, out %q, stderr %q; want n=12", flag, code, out, errs)
		}
		warned := 0
		for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
			if !strings.HasPrefix(l, "tetsql: warning: ") {
				t.Errorf("%q: stderr line %q is not a warning", flag, l)
			}
			if strings.Contains(l, filepath.ToSlash(bad)) {
				warned++
			}
		}
		if warned == 0 {
			t.Errorf("%q: no warning names %s: %q", flag, bad, errs)
		}
	}
}

// TestRun_globOpenAndOutput: .open GLOB [AS alias] attaches a glob; an
// output path that is one of the files a glob matched is refused and
// left as it was; safe mode reads a glob given on the command line.
func TestRun_globOpenAndOutput(t *testing.T) {
	t.Parallel()
	root := hiveTree(t)
	pattern := filepath.ToSlash(root) + "/**/*.tet"
	code, out, errs := runCLI(t, "", "-c", ".open '"+pattern+"' AS g", "-c", "SELECT count(*) AS n FROM g.t2m")
	if code != 0 || out != "n\n12\n" {
		t.Errorf(".open GLOB AS g: exit %d %q %s", code, out, errs)
	}
	code, out, errs = runCLI(t, "", "-c", ".open "+pattern, "-c", "SELECT count(*) AS n FROM "+tetsql.GlobAlias(pattern)+".t2m")
	if code != 0 || out != "n\n12\n" {
		t.Errorf(".open GLOB: exit %d %q %s", code, out, errs)
	}
	victim := filepath.Join(root, "year=2020/month=02/x.tet")
	before, err := os.ReadFile(victim)
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCLI(t, "", "-o", victim, pattern, "SELECT 1")
	if code == 0 || !strings.Contains(errs, "is an input of this session") {
		t.Errorf("-o a matched file: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "-c", ".open '"+pattern+"' AS g", "-c", ".output "+victim, "-c", "SELECT 1")
	if code == 0 || !strings.Contains(errs, "is an input of this session") {
		t.Errorf(".output a matched file: exit %d, stderr %q", code, errs)
	}
	// A table the user made over a glob protects its files too.
	code, _, errs = runCLI(t, "", "-c", "CREATE VIRTUAL TABLE temp.x USING tet_many('"+pattern+"', 't2m')", "-c", ".once "+victim, "-c", "SELECT 1")
	if code == 0 || !strings.Contains(errs, "is an input of this session (matched by "+pattern+" in temp)") {
		t.Errorf(".once a file a user's tet_many table matches: exit %d, stderr %q", code, errs)
	}
	if after, err := os.ReadFile(victim); err != nil || string(after) != string(before) {
		t.Errorf("the matched file changed (%v)", err)
	}
	code, out, errs = runCLI(t, "", "--safe", pattern, "SELECT count(*) AS n FROM t2m")
	if code != 0 || out != "n\n12\n" {
		t.Errorf("--safe GLOB: exit %d %q %s", code, out, errs)
	}
	code, _, errs = runCLI(t, "", "--safe", pattern, "-c", ".open "+pattern+" AS h")
	if code == 0 || !strings.Contains(errs, ".open") {
		t.Errorf("--safe .open: exit %d %q", code, errs)
	}
}
