package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinary_safeRefuses runs the built command with -safe (sqlite3's
// spelling) and --safe: every statement that could write a file, open a
// path or change the schema, and every dot command that names a path or
// reaches the shell, fails with "Error: not allowed in safe mode: X" and
// exit status 1, and nothing appears in the working directory.
func TestBinary_safeRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	demo, err := filepath.Abs(filepath.Join("..", "..", "testdata", "demo.tet"))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "s.sql")
	os.WriteFile(script, []byte("SELECT 1;\n"), 0o644)
	cases := []struct{ cmd, what string }{
		{"ATTACH 'x.db' AS x", "ATTACH"},
		{"DETACH demo", "DETACH"},
		{"VACUUM INTO 'v.db'", "VACUUM"},
		{"VACUUM", "VACUUM"},
		{"CREATE VIRTUAL TABLE temp.p USING tet('/etc/passwd', tet_file)", "CREATE VIRTUAL TABLE"},
		{"CREATE VIRTUAL TABLE p USING tet('/etc/passwd', tet_file)", "CREATE VIRTUAL TABLE"},
		{"CREATE TEMP VIEW temperature AS SELECT 1 AS value", "CREATE TEMP VIEW"},
		{"CREATE TEMP TABLE t(x)", "CREATE TEMP TABLE"},
		{"CREATE TABLE t(x)", "CREATE TABLE"},
		{"CREATE INDEX i ON temperature(value)", "CREATE INDEX"},
		{"DROP TABLE temperature", "DROP TABLE"},
		{"ALTER TABLE temperature RENAME TO t", "ALTER TABLE"},
		{"INSERT INTO temperature(value) VALUES (1)", "INSERT"},
		{"UPDATE temperature SET value = 0", "UPDATE"},
		{"DELETE FROM temperature", "DELETE"},
		{"PRAGMA writable_schema=1", "PRAGMA writable_schema"},
		{"PRAGMA temp_store_directory='.'", "PRAGMA temp_store_directory"},
		{"PRAGMA hard_heap_limit=1", "PRAGMA hard_heap_limit"},
		{"SELECT load_extension('x')", "load_extension"},
		{"SELECT 1; CREATE TEMP VIEW v AS SELECT 1", "CREATE TEMP VIEW"}, // the shell runs them one by one
		{".open " + demo, ".open"},
		{".open x=" + demo, ".open"},
		{".output out.csv", ".output"},
		{".output", ".output"},
		{".once out.csv", ".once"},
		{".read " + script, ".read"},
		{".shell touch x", ".shell"},
		{".system touch x", ".system"},
		{".import x.csv t", ".import"},
		{".save x.db", ".save"},
		{".backup x.db", ".backup"},
		{".log x.log", ".log"},
		{".cd /", ".cd"},
	}
	for i, tc := range cases {
		flag := "-safe"
		if i%2 == 1 {
			flag = "--safe"
		}
		code, _, stderr := runBin(t, dir, "", flag, "-c", tc.cmd, demo)
		if want := "Error: not allowed in safe mode: " + tc.what + "\n"; code != exitError || stderr != want {
			t.Errorf("%s -c %q: exit %d, stderr %q, want %q", flag, tc.cmd, code, stderr, want)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Fatalf("after %q the directory holds %v", tc.cmd, ents)
		}
	}
	// The same input on stdin: the refusal stops the script.
	code, _, stderr := runBin(t, dir, "SELECT 1;\n.output o.csv\nSELECT 2;\n", "-safe", demo)
	if code != exitError || !strings.Contains(stderr, "not allowed in safe mode: .output") {
		t.Errorf("script on stdin: exit %d, %q", code, stderr)
	}
}

// TestBinary_safeAllows: reading statements work in safe mode and give
// the answers they give without it; the operator's own -o FILE is
// written (the operator is trusted, the SQL is not).
func TestBinary_safeAllows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	demo, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "demo.tet"))
	for _, q := range []string{
		"SELECT count(*), round(avg(value), 3) FROM temperature",
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 10) SELECT sum(x) FROM c",
		"SELECT station_label, rank() OVER (ORDER BY value DESC) FROM temperature WHERE time_label = '2024-01-01' ORDER BY 2 LIMIT 3",
		"SELECT time_label, count FROM temperature_agg('time') ORDER BY 1 LIMIT 2",
		"PRAGMA table_info(temperature)",
		".tables",
		".datasets",
		".verify",
		".info",
	} {
		code, safe, stderr := runBin(t, dir, "", "--safe", "-c", q, demo)
		_, plain, _ := runBin(t, dir, "", "-c", q, demo)
		if code != exitOK || safe != plain || safe == "" {
			t.Errorf("%q: exit %d, %q (%s); without --safe %q", q, code, safe, stderr, plain)
		}
	}
	out := filepath.Join(dir, "o.csv")
	if code, _, stderr := runBin(t, dir, "", "--safe", "-o", out, demo, "SELECT 7 AS n"); code != exitOK {
		t.Fatalf("-o in safe mode: %d %s", code, stderr)
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "n\n7\n" {
		t.Errorf("-o FILE in safe mode wrote %q, %v", b, err)
	}
}

// TestBinary_limits: the limit flags end a statement with a clear error
// and exit status 1; --safe sets the defaults, which the flags override.
func TestBinary_limits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	demo, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "demo.tet"))
	const endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"--statement-timeout", "300ms", demo, endless}, exitError, "Error: statement time limit of 300ms exceeded\n"},
		{[]string{"-safe", "--statement-timeout", "0.2", demo, endless}, exitError, "Error: statement time limit of 200ms exceeded\n"},
		{[]string{"--max-rows", "3", demo, "SELECT value FROM temperature"}, exitError, "Error: result has more than 3 rows (max_rows)\n"},
		{[]string{"--max-rows", "3", demo, "SELECT value FROM temperature LIMIT 3"}, exitOK, ""},
		{[]string{"--safe", demo, "SELECT x FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 1000001) SELECT x FROM c)"}, exitError, "Error: result has more than 1000000 rows (max_rows)\n"},
		{[]string{"--safe", "--max-rows", "0", demo, "SELECT count(*) FROM (SELECT x FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 1000001) SELECT x FROM c))"}, exitOK, ""},
		{[]string{"--safe", demo, "SELECT length(zeroblob(100000000))"}, exitError, "Error: string or blob too big\n"},
		{[]string{"--statement-timeout", "soon", demo}, exitUsage, "Error: --statement-timeout \"soon\": want a duration such as 30s (0 = none)\n"},
		{[]string{"--max-rows", "-2", demo}, exitUsage, "Error: --max-rows -2: want a number of rows (0 = any)\nTry 'tetsql --help'.\n"},
	} {
		code, _, stderr := runBin(t, dir, "", tc.args...)
		if code != tc.code || stderr != tc.stderr {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q", tc.args, code, stderr, tc.code, tc.stderr)
		}
	}
}
