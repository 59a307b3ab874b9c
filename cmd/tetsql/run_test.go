package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/tetsql/tetsql/tetcore"
)

func ref(name string) string { return filepath.Join("..", "..", "testdata", "reference", name) }

// runCLI runs the command in-process with stdin and returns its exit
// status and output.
func runCLI(t testing.TB, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestRun_exitCodes(t *testing.T) {
	t.Parallel()
	sample := ref("sample.tet")
	tests := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stdout string // exact, when not ""
		stderr string // substring, when not ""
	}{
		{name: "query", args: []string{sample, "SELECT count(*) AS n FROM temperature"}, stdout: "n\n6\n"},
		{name: "no file", args: []string{"SELECT 1 + 1 AS two"}, stdout: "two\n2\n"},
		{name: "sql error", args: []string{sample, "SELECT * FROM nope"}, code: 1, stderr: "Error: no such table: nope\n"},
		{name: "stops at first error", args: []string{"-c", "SELECT 1 AS a", "-c", "SELECT x FROM nope", "-c", "SELECT 3 AS c"},
			code: 1, stdout: "a\n1\n", stderr: "no such table: nope"},
		{name: "read-only", args: []string{sample, "DELETE FROM temperature"}, code: 1, stderr: "read-only"},
		{name: "missing file", args: []string{"missing.tet", "SELECT 1"}, code: 1, stderr: "missing.tet"},
		{name: "not a tet file", args: []string{"run.go", "SELECT 1"}, code: 1, stderr: "run.go"},
		{name: "unknown flag", args: []string{"--bogus"}, code: 2, stderr: "Error: unknown flag --bogus\nTry 'tetsql --help'."},
		{name: "bad mode", args: []string{"--mode", "fancy", sample, "SELECT 1"}, code: 2, stderr: `unknown mode "fancy"`},
		{name: "two modes: the last wins", args: []string{"--csv", "--json", "SELECT 1 AS a"}, stdout: `[{"a":1}]` + "\n"},
		{name: "bad alias", args: []string{"a=" + sample, "a=" + sample, "SELECT 1"}, code: 2, stderr: `alias "a" used twice`},
		{name: "bad size", args: []string{"--max-chunk-bytes", "lots", "SELECT 1"}, code: 2, stderr: "--max-chunk-bytes"},
		{name: "mem limit", args: []string{"--mem-limit", "300B", sample, "SELECT count FROM temperature_agg('d0,d1')"}, code: 1,
			stderr: "Error: sample.temperature_agg: grouping needs 672 B for 6 groups, above the memory limit of 300 B (DSN option mem_limit, shell --mem-limit)\n"},
		{name: "within mem limit", args: []string{"--mem-limit", "1KiB", sample, "SELECT sum(count) AS n FROM temperature_agg('d0,d1')"}, stdout: "n\n6\n"},
		{name: "bad mem limit", args: []string{"--mem-limit", "0", "SELECT 1"}, code: 2, stderr: `--mem-limit "0": want a positive size`},
		{name: "bad read-ahead bytes", args: []string{"--read-ahead-bytes", "0", "SELECT 1"}, code: 2, stderr: `--read-ahead-bytes "0": want a positive size`},
		{name: "read-ahead off", args: []string{"--read-ahead", "0", sample, "SELECT count(*) AS n FROM temperature"}, stdout: "n\n6\n"},
		{name: "bad read-ahead", args: []string{"--read-ahead", "-1", "SELECT 1"}, code: 2, stderr: `--read-ahead -1: want a number of chunks from 0 to 64 (0 = off)`},
		{name: "read-ahead bytes", args: []string{"--read-ahead", "4", "--read-ahead-bytes", "1KiB", sample, "SELECT count(*) AS n FROM temperature"}, stdout: "n\n6\n"},
		{name: "quit", args: []string{"-c", ".quit", "-c", "SELECT 1"}, code: 0, stdout: ""},
		{name: "dot error", args: []string{"-c", ".nope"}, code: 1, stderr: `Error: unknown command ".nope"`},
		{name: "stdin script", stdin: "SELECT 1 AS a;\nSELECT 2 AS b", stdout: "a\n1\nb\n2\n"},
		{name: "stdin script error", stdin: "SELECT 1 AS a;\n\nSELECT *\nFROM nope;\nSELECT 3;", code: 1, stdout: "a\n1\n",
			stderr: "Error: stdin:3: no such table: nope\n"},
		{name: "help", args: []string{"--help"}, stdout: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := runCLI(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.code, errs)
			}
			if tt.stdout != "" && out != tt.stdout {
				t.Errorf("stdout %q, want %q", out, tt.stdout)
			}
			if !strings.Contains(errs, tt.stderr) {
				t.Errorf("stderr %q lacks %q", errs, tt.stderr)
			}
			if strings.Contains(errs, "goroutine ") || strings.Contains(errs, "panic") {
				t.Errorf("stack trace on stderr: %s", errs)
			}
		})
	}
}

func TestRun_helpAndVersion(t *testing.T) {
	t.Parallel()
	_, out, _ := runCLI(t, "", "--help")
	for _, want := range []string{"Usage: tetsql", "--command", "--file", "--mode", "--csv", "--json", "--header", "--no-header",
		"--null", "--output", "--stats", "--timer", "--version", "Exit status"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	code, out, _ := runCLI(t, "", "--version")
	if code != 0 || !strings.HasPrefix(out, "tetsql ") || !strings.Contains(out, "SQLite 3.") {
		t.Errorf("--version: %d %q", code, out)
	}
}

// TestRun_stats: the scan line shows that only one of two chunks was
// decoded for a query on the last column.
func TestRun_stats(t *testing.T) {
	t.Parallel()
	code, out, errs := runCLI(t, "", "--stats", ref("sample.tet"), "SELECT * FROM temperature WHERE d1 = 2")
	if code != 0 || out != "d0,d1,value\n0,2,3.0\n1,2,6.0\n" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if !strings.HasPrefix(errs, "stats: sample.temperature chunks=1/2 rows=2 read=") || strings.Count(errs, "\n") != 1 {
		t.Errorf("stderr %q", errs)
	}
	_, _, errs = runCLI(t, "", "--timer", ref("sample.tet"), "SELECT 1")
	if !strings.HasPrefix(errs, "Run Time: real ") {
		t.Errorf("--timer: %q", errs)
	}
}

// TestRun_modes: csv with a header by default off a terminal; flags
// change mode, header and NULL text.
func TestRun_modes(t *testing.T) {
	t.Parallel()
	q := "SELECT d0, value, NULL AS n FROM temperature WHERE d1 = 0 ORDER BY d0"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "d0,value,n\n0,1.0,\n1,4.0,\n"},
		{[]string{"--no-header", "--null", "-"}, "0,1.0,-\n1,4.0,-\n"},
		{[]string{"--json"}, `[{"d0":0,"value":1.0,"n":null},` + "\n" + `{"d0":1,"value":4.0,"n":null}]` + "\n"},
		{[]string{"--mode", "tsv"}, "d0\tvalue\tn\n0\t1.0\t\n1\t4.0\t\n"},
		{[]string{"-c", ".mode jsonl"}, `{"d0":0,"value":1.0,"n":null}` + "\n" + `{"d0":1,"value":4.0,"n":null}` + "\n"},
	} {
		args := append(append([]string{}, tt.args...), ref("sample.tet"), q)
		code, out, errs := runCLI(t, "", args...)
		if code != 0 || out != tt.want {
			t.Errorf("%v: exit %d %q, want %q (stderr %q)", tt.args, code, out, tt.want, errs)
		}
	}
}

// TestRun_files: aliases, several files, -f scripts, .open and ATTACH of
// a plain SQLite database.
func TestRun_files(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "q.sql")
	os.WriteFile(script, []byte(".mode csv\nSELECT count(*) AS n\n  FROM s.temperature;\n"), 0o644)
	code, out, errs := runCLI(t, "", "-f", script, "s="+ref("sample.tet"), ref("multichunk_u8.tet"),
		"SELECT count(*) AS m FROM multichunk_u8.a")
	if code != 0 || !strings.HasPrefix(out, "n\n6\nm\n") {
		t.Errorf("exit %d %q %q", code, out, errs)
	}
	db := filepath.Join(dir, "plain.db")
	code, out, errs = runCLI(t, "", ref("sample.tet"),
		"ATTACH '"+db+"' AS p; CREATE TABLE p.t AS SELECT * FROM temperature WHERE d0 = 1; SELECT sum(value) AS s FROM p.t;")
	if code != 0 || out != "s\n15.0\n" {
		t.Errorf("ATTACH: exit %d %q %q", code, out, errs)
	}
	code, out, errs = runCLI(t, "", "-c", ".open "+ref("sample.tet")+" AS late", "-c", "SELECT max(value) AS mx FROM late.temperature")
	if code != 0 || out != "mx\n6.0\n" {
		t.Errorf(".open: exit %d %q %q", code, out, errs)
	}
}

// TestRun_export: -o writes the results to the file, nothing to stdout.
func TestRun_export(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "t.csv")
	code, stdout, errs := runCLI(t, "", "-o", out, ref("sample.tet"), "SELECT d0, d1, value FROM temperature ORDER BY d0, d1")
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	b, _ := os.ReadFile(out)
	if want := "d0,d1,value\n0,0,1.0\n0,1,2.0\n0,2,3.0\n1,0,4.0\n1,1,5.0\n1,2,6.0\n"; string(b) != want {
		t.Errorf("file %q", b)
	}
	js := filepath.Join(dir, "t.json")
	runCLI(t, "", "-o", js, ref("sample.tet"), "SELECT value FROM temperature WHERE d0 = 0 AND d1 = 0")
	if b, _ := os.ReadFile(js); string(b) != "[{\"value\":1.0}]\n" {
		t.Errorf("json by extension: %q", b)
	}
	code, _, errs = runCLI(t, "", "-o", filepath.Join(dir, "no", "such", "dir.csv"), "SELECT 1")
	if code != 1 || !strings.Contains(errs, "dir.csv") {
		t.Errorf("bad -o: %d %q", code, errs)
	}
}

// TestSplitArgs: the last argument is SQL unless it is a file.
func TestSplitArgs(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args  []string
		files int
		sql   string
	}{
		{[]string{"a.tet"}, 1, ""},
		{[]string{"a.tet", "SELECT 1"}, 1, "SELECT 1"},
		{[]string{"x=a.tet", "b.tet"}, 2, ""},
		{[]string{"a.tet", "missing.b2nd"}, 2, ""}, // missing files of every format
		{[]string{"a.tet", "x=missing.TGM"}, 2, ""},
		{[]string{"a.tet", "SELECT 'x.tgm'"}, 1, "SELECT 'x.tgm'"},
		{[]string{"run.go"}, 1, ""}, // an existing file
		{[]string{".tables"}, 0, ".tables"},
		{[]string{}, 0, ""},
		{[]string{"a.tet", ""}, 1, ""},
		{[]string{" \n"}, 0, " \n"},
	} {
		var o options
		splitArgs(&o, tt.args)
		given := len(tt.args) > tt.files
		if len(o.files) != tt.files || o.sql != tt.sql || o.hasSQL != given {
			t.Errorf("%q: files %v sql %q (given %v)", tt.args, o.files, o.sql, o.hasSQL)
		}
	}
	// An empty file name is a usage error, not "stat : no such file".
	for _, args := range [][]string{{"", "SELECT 1"}, {"a.tet", "", "SELECT 1"}} {
		var o options
		err := splitArgs(&o, args)
		if err == nil || !strings.HasSuffix(err.Error(), "an empty file name") {
			t.Errorf("%q: err %v, want an empty file name", args, err)
		}
	}
}

// TestRun_emptyArgs: an empty or blank SQL argument runs nothing and
// reads no stdin (as in sqlite3); an empty file name is a usage error.
func TestRun_emptyArgs(t *testing.T) {
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	t.Setenv("HOME", t.TempDir())
	for _, sql := range []string{"", "  \n"} {
		code, out, errs := runCLI(t, "SELECT 'x';\n", demo, sql)
		if code != 0 || out != "" || errs != "" {
			t.Errorf("SQL %q: exit %d, stdout %q, stderr %q; want 0 and nothing", sql, code, out, errs)
		}
	}
	code, out, errs := runCLI(t, "", "", "SELECT 1")
	if code != exitUsage || out != "" || errs != "Error: an empty file name\nTry 'tetsql --help'.\n" {
		t.Errorf(`"" "SELECT 1": exit %d, stdout %q, stderr %q`, code, out, errs)
	}
	var o options
	splitArgs(&o, []string{"era5=/data/x.tet"})
	if o.files[0].Alias != "era5" || o.files[0].Path != "/data/x.tet" {
		t.Errorf("alias: %+v", o.files)
	}
}

// BenchmarkExportCSV exports 10M rows to a csv file through the whole
// command. Memory stays flat: B/op and allocs/op are per export, and
// peak-heap-MiB is the largest live heap seen while it ran.
func BenchmarkExportCSV(b *testing.B) {
	const n = 10_000_000
	path := filepath.Join(b.TempDir(), "ten_million.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w.AddDataset(tetcore.DatasetSpec{Name: "v", DType: tetcore.F32, Shape: []int64{n}, ChunkShape: []int64{1 << 18}})
	buf := make([]byte, 4<<18)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	for {
		_, _, _, extent, ok := w.NextChunk()
		if !ok {
			break
		}
		w.WriteChunk(buf[:4*extent[0]])
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "out.csv")
	stop, peak := watchHeap()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if code, _, errs := runCLI(b, "", "-o", out, path, "SELECT d0, value FROM v"); code != 0 {
			b.Fatal(errs)
		}
	}
	b.StopTimer()
	stop()
	b.ReportMetric(float64(*peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(n), "rows/op")
	if fi, err := os.Stat(out); err == nil {
		b.SetBytes(fi.Size())
	}
}

// TestRun_verifyDeepLimit: .verify --deep decodes no chunk above the
// shell's --max-chunk-bytes (the file is shared, opened with no limit of
// its own): such chunks are findings and the verification fails.
func TestRun_verifyDeepLimit(t *testing.T) {
	t.Parallel()
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	code, out, _ := runCLI(t, "", "--max-chunk-bytes", "100", demo, "-c", ".verify --deep")
	if code == 0 || !strings.Contains(out, "FAILED") || !strings.Contains(out, "chunk larger than the configured limit (100 bytes at most)") {
		t.Errorf("limited: exit %d, output:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", demo, "-c", ".verify --deep")
	if code != 0 || !strings.Contains(out, "ok (4 datasets, 74 chunks, 74 decoded)") {
		t.Errorf("default limit: exit %d, output:\n%s", code, out)
	}
}

// TestRun_exportParquet: -o x.parquet writes a Parquet file read back
// with the query's rows and types; a failing query leaves the old file.
func TestRun_exportParquet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "t.parquet")
	demo := filepath.Join("..", "..", "testdata", "demo.tet")
	code, stdout, errs := runCLI(t, "", "-o", out, demo, "SELECT station, value FROM location")
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	b, _ := os.ReadFile(out)
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	fields := f.Schema().Fields()
	if f.NumRows() != 100 || len(fields) != 2 || fields[0].Type().Kind() != parquet.Int64 || fields[1].Type().Kind() != parquet.Double {
		t.Errorf("%d rows, schema %v", f.NumRows(), f.Schema())
	}
	code, _, errs = runCLI(t, "", "-o", out, demo, "SELECT CASE WHEN time > 200 THEN abs(-9223372036854775807 - 1) END FROM temperature")
	if code != 1 || !strings.Contains(errs, "integer overflow") {
		t.Errorf("failing query: exit %d, stderr %q", code, errs)
	}
	if again, _ := os.ReadFile(out); !bytes.Equal(again, b) {
		t.Errorf("a failing query changed %s", out)
	}
	code, stdout, errs = runCLI(t, "", "--mode", "parquet", demo, "SELECT station, value FROM location")
	if code != 0 || stdout != string(b) {
		t.Errorf("--mode parquet to stdout: exit %d, %d bytes (want the file's %d), stderr %q", code, len(stdout), len(b), errs)
	}
	code, _, errs = runCLI(t, "", "--compression", "lz4", "-o", out, demo, "SELECT 1")
	if code != 2 || !strings.Contains(errs, `unknown compression "lz4" (valid: zstd, snappy, gzip, none)`) {
		t.Errorf("--compression lz4: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "--compression", "none", "-o", out, demo, "SELECT station, value FROM location")
	if raw, _ := os.ReadFile(out); code != 0 || len(raw) <= len(b) {
		t.Errorf("--compression none: exit %d, %d bytes (zstd: %d), stderr %q", code, len(raw), len(b), errs)
	}
}
