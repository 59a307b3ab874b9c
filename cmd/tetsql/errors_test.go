package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func demo() string { return filepath.Join("..", "..", "testdata", "demo.tet") }

// TestRun_errorPlaceAndSuggestion: the exact stderr of misspellings.
func TestRun_errorPlaceAndSuggestion(t *testing.T) {
	t.Parallel()
	root := hiveTree(t)
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"table", "", []string{demo(), "SELECT * FROM temprature WHERE value > 1"},
			"Error: no such table: temprature — did you mean temperature?\n" +
				"  SELECT * FROM temprature WHERE value > 1\n" +
				"                ^\n"},
		{"qualified table", "", []string{demo(), "SELECT avg(value) FROM demo.temprature"},
			"Error: no such table: demo.temprature — did you mean demo.temperature?\n" +
				"  SELECT avg(value) FROM demo.temprature\n" +
				"                         ^\n"},
		{"misspelt schema", "", []string{demo(), "SELECT avg(value) FROM dmeo.temperature"},
			"Error: no such table: dmeo.temperature — did you mean demo.temperature?\n" +
				"  SELECT avg(value) FROM dmeo.temperature\n" +
				"                         ^\n"},
		{"column", "", []string{demo(), "SELECT station_label, valeu FROM temperature"},
			"Error: no such column: valeu — did you mean value?\n" +
				"  SELECT station_label, valeu FROM temperature\n" +
				"                        ^\n"},
		{"function, multi-line script", "SELECT time,\n       avgg(value)\n  FROM temperature GROUP BY time;\n", []string{demo()},
			"Error: stdin:1: no such function: avgg — did you mean avg?\n" +
				"  LINE 2:        avgg(value)\n" +
				"                 ^\n"},
		{"syntax error", "", []string{demo(), "SELECT * FORM temperature"},
			"Error: near \"FORM\": syntax error\n" +
				"  SELECT * FORM temperature\n" +
				"           ^\n"},
		{"no place", "", []string{demo(), "SELECT 1 +"}, "Error: incomplete input\n"},
		{"dot command", "", []string{demo(), "-c", ".tabels"}, "Error: unknown command \".tabels\" — did you mean .tables?\n"},
		{"safe mode", "", []string{"--safe", demo(), "SELECT * FROM temprature"},
			"Error: no such table: temprature — did you mean temperature?\n" +
				"  SELECT * FROM temprature\n" +
				"                ^\n"},
		{"max rows", "", []string{"--max-rows", "1", demo(), "SELECT valeu FROM temperature"},
			"Error: no such column: valeu — did you mean value?\n" +
				"  SELECT valeu FROM temperature\n" +
				"         ^\n"},
		{"glob schema", "", []string{root + "/**/*.tet", "SELECT * FROM t2n"},
			"Error: no such table: t2n — did you mean t2m?\n" +
				"  SELECT * FROM t2n\n" +
				"                ^\n"},
		{"attached file", "", []string{demo(), "-c", ".open " + ref("sample.tet") + " AS other", "-c", "SELECT * FROM other.temperatur"},
			"Error: no such table: other.temperatur — did you mean other.temperature?\n" +
				"  SELECT * FROM other.temperatur\n" +
				"                ^\n"},
		{"catalog unreadable: no suggestion", "", []string{demo(), "-c", "CREATE TEMP TABLE x(a)", "-c", "CREATE TEMP VIEW v AS SELECT a FROM x",
			"-c", "DROP TABLE x", "-c", "SELECT valeu FROM temperature"},
			"Error: no such column: valeu\n" +
				"  SELECT valeu FROM temperature\n" +
				"         ^\n"},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, tt.stdin, tt.args...)
		if code != exitError || stderr != tt.want {
			t.Errorf("%s: exit %d, stderr\n%s\nwant\n%s", tt.name, code, stderr, tt.want)
		}
	}
}

// goMarkers are signs of Go's internals in a message meant for people:
// a package's prefix at the start or after ": ", Go's wordings, type
// names, formatting mistakes, SQLite's generic text and result code.
var goMarkers = regexp.MustCompile(`(?:^Error: |: )(?:tet|tetsql|tetcore|b2nd|tgm|blosc|sql|driver|sqlitevt|vtab|memformat|scan): |` +
	`context canceled|context deadline|\*tetsql\.|%!|strconv\.|&\{|<nil>|goroutine|panic|SQL logic error|\(\d+\)$|\bstat `)

// TestRun_errorsSpeakPlainly: no message a user can provoke shows Go's
// internals.
func TestRun_errorsSpeakPlainly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src, err := os.ReadFile(demo())
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.tet")
	os.WriteFile(truncated, src[:len(src)/2], 0o644)
	damaged := filepath.Join(dir, "damaged.tet")
	bad := append([]byte(nil), src...)
	for i := 10000; i < 10064; i++ { // inside the payload of a temperature chunk
		bad[i] ^= 0x5a
	}
	os.WriteFile(damaged, bad, 0o644)
	notTet := filepath.Join(dir, "notes.txt")
	os.WriteFile(notTet, []byte("hello\n"), 0o644)
	cross := "SELECT count(*) FROM temperature a, temperature b, temperature c"

	scenarios := [][]string{
		{demo(), "SELECT * FORM temperature"},
		{demo(), "SELECT 'x"},
		{demo(), "SELECT :x, $x"}, // a parameter not set is NULL (SELECT ? is no error), as in sqlite3
		{demo(), "SELECT * FROM temperature_agg('nodim')"},
		{demo(), "SELECT * FROM nosuch.t"},
		{demo(), "-c", ".mode fancy"},
		{demo(), "-c", ".headers maybe"},
		{demo(), "-c", ".maxrows lots"},
		{demo(), "-c", ".open"},
		{demo(), "-c", ".open " + filepath.Join(dir, "missing.tet")},
		{demo(), "-c", ".open " + notTet},
		{demo(), "-c", ".open " + demo() + " AS 1x"},
		{demo(), "-c", ".read " + filepath.Join(dir, "missing.sql")},
		{demo(), "-c", ".output " + filepath.Join(dir, "no", "such", "dir.csv")},
		{filepath.Join(dir, "missing.tet"), "SELECT 1"},
		{notTet, "SELECT 1"},
		{dir, "SELECT 1"},
		{truncated, "SELECT 1"},
		{"--no-agg-rewrite", damaged, "SELECT sum(value) FROM temperature"},
		{"--statement-timeout", "1ms", demo(), cross},
		{"--max-rows", "3", demo(), "SELECT * FROM temperature"},
		{"--max-rows", "lots", demo(), "SELECT 1"},
		{"--statement-timeout", "soon", demo(), "SELECT 1"},
		{"--max-chunk-bytes", "10", demo(), "SELECT sum(value) FROM temperature"},
		{"--safe", demo(), "ATTACH 'x.tet' AS y"},
		{"--safe", demo(), "SELECT load_extension('x')"},
		{"--safe", demo(), "-c", ".open " + demo()},
		{"a=" + demo(), "a=" + demo(), "SELECT 1"},
	}
	for _, args := range scenarios {
		code, _, stderr := runCLI(t, "", args...)
		if code == exitOK || !strings.HasPrefix(stderr, "Error: ") {
			t.Errorf("%q: exit %d, stderr %q: want an error", args, code, stderr)
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
			if m := goMarkers.FindString(line); m != "" {
				t.Errorf("%q: %q in %q", args, m, line)
			}
		}
	}
}
