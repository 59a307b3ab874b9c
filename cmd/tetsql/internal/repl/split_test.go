package repl_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

func TestSplit(t *testing.T) {
	t.Parallel()
	trigger := "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  INSERT INTO log VALUES (1);\n  UPDATE c SET n = n + 1;\nEND;"
	tests := []struct {
		name  string
		in    string
		stmts []string
		rest  string
	}{
		{"empty", "", nil, ""},
		{"blanks and comments only", "  -- hi;\n/* ; */ \n", nil, ""},
		{"one", "SELECT 1;", []string{"SELECT 1;"}, ""},
		{"two on a line", "SELECT 1; SELECT 2;", []string{"SELECT 1;", "SELECT 2;"}, ""},
		{"no final semicolon", "SELECT 1; SELECT 2", []string{"SELECT 1;"}, "SELECT 2"},
		{"empty statements skipped", ";;SELECT 1;;", []string{"SELECT 1;"}, ""},
		{"semicolon in single quotes", "SELECT 'a;b';", []string{"SELECT 'a;b';"}, ""},
		{"doubled quote", "SELECT 'it''s;';", []string{"SELECT 'it''s;';"}, ""},
		{"double quotes", `SELECT "x;y" FROM t;`, []string{`SELECT "x;y" FROM t;`}, ""},
		{"backticks", "SELECT `x;y`;", []string{"SELECT `x;y`;"}, ""},
		{"brackets", "SELECT [x;y];", []string{"SELECT [x;y];"}, ""},
		{"line comment", "SELECT 1 -- no; end\n;", []string{"SELECT 1 -- no; end\n;"}, ""},
		{"block comment", "SELECT /* ; */ 1;", []string{"SELECT /* ; */ 1;"}, ""},
		{"unterminated string", "SELECT 'abc;", nil, "SELECT 'abc;"},
		{"unterminated comment", "SELECT 1 /* ;", nil, "SELECT 1 /* ;"},
		{"minus is not a comment", "SELECT 3-1;", []string{"SELECT 3-1;"}, ""},
		{"trigger", trigger + " SELECT 1;", []string{trigger, "SELECT 1;"}, ""},
		{"temp trigger, lower case", "create temp trigger x before delete on t begin select 1; end; select 2;",
			[]string{"create temp trigger x before delete on t begin select 1; end;", "select 2;"}, ""},
		{"trigger body incomplete", "CREATE TRIGGER x AFTER INSERT ON t BEGIN SELECT 1;", nil,
			"CREATE TRIGGER x AFTER INSERT ON t BEGIN SELECT 1;"},
		{"CASE … END is not a trigger end", "SELECT CASE WHEN 1 THEN 2 END; SELECT 3;",
			[]string{"SELECT CASE WHEN 1 THEN 2 END;", "SELECT 3;"}, ""},
		{"create table is not a trigger", "CREATE TABLE t(x); SELECT 1;", []string{"CREATE TABLE t(x);", "SELECT 1;"}, ""},
		{"explain", "EXPLAIN SELECT 1;", []string{"EXPLAIN SELECT 1;"}, ""},
		{"identifier named end", "SELECT end_time FROM t;", []string{"SELECT end_time FROM t;"}, ""},
		{"utf-8", "SELECT 'Tromsø;' AS \"städte\";", []string{"SELECT 'Tromsø;' AS \"städte\";"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stmts, rest := repl.Split(tt.in)
			if !reflect.DeepEqual(stmts, tt.stmts) || rest != tt.rest {
				t.Errorf("Split(%q) = %q, %q; want %q, %q", tt.in, stmts, rest, tt.stmts, tt.rest)
			}
		})
	}
}

// TestBuffer feeds scripts line by line: the lexer state must carry
// across lines (a string or comment spanning lines).
func TestBuffer(t *testing.T) {
	t.Parallel()
	var b repl.Buffer
	feed := func(line string) []string { return b.Add(line) }
	if got := feed("SELECT 'a"); got != nil || b.Empty() {
		t.Fatalf("open string: %q empty=%v", got, b.Empty())
	}
	if got := feed("; b' /* ;"); got != nil {
		t.Fatalf("inside string and comment: %q", got)
	}
	if got := feed("*/ ; SELECT 2"); len(got) != 1 || got[0] != "SELECT 'a\n; b' /* ;\n*/ ;" {
		t.Fatalf("completed: %q", got)
	}
	if b.Empty() {
		t.Fatal("SELECT 2 should be pending")
	}
	if got := b.Flush(); got != "SELECT 2" || !b.Empty() {
		t.Fatalf("Flush = %q", got)
	}
	if got := feed("-- only a comment"); got != nil || !b.Empty() {
		t.Fatalf("comment line leaves the buffer non-empty: %q", got)
	}
	feed("SELECT")
	b.Reset()
	if !b.Empty() || b.Flush() != "" {
		t.Fatal("Reset kept text")
	}
	// A trigger typed over several lines completes only after END;.
	lines := strings.Split("CREATE TRIGGER t1 AFTER INSERT ON a\nBEGIN\n  INSERT INTO b VALUES (new.x);\nEND;", "\n")
	for i, l := range lines {
		got := feed(l)
		if i < len(lines)-1 && got != nil {
			t.Fatalf("line %d completed %q", i, got)
		}
		if i == len(lines)-1 && len(got) != 1 {
			t.Fatalf("trigger not completed: %q", got)
		}
	}
}

func TestComplete(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		"SELECT 1;": true, "SELECT 1": false, "SELECT ';'": false, "SELECT 1; -- c": true,
		"SELECT 1; SELECT": false, "CREATE TRIGGER x AFTER INSERT ON t BEGIN SELECT 1;": false,
		"CREATE TRIGGER x AFTER INSERT ON t BEGIN SELECT 1; END;": true, "": false,
	} {
		if got := repl.Complete(in); got != want {
			t.Errorf("Complete(%q) = %v", in, got)
		}
	}
}

func TestParseDot(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		name string
		args []string
		bad  bool
	}{
		{".tables", "tables", nil, false},
		{"  .MODE  json ", "mode", []string{"json"}, false},
		{".open 'my file.tet' AS x", "open", []string{"my file.tet", "AS", "x"}, false},
		{`.output "a \"b\".csv"`, "output", []string{`a "b".csv`}, false},
		{".once ''", "once", []string{""}, false},
		{`.print "a\tb" 'c\td' e\tf`, "print", []string{"a\tb", `c\td`, `e\tf`}, false}, // "…" resolved; '…' and bare words as typed
		{`.output "x\qy"`, "output", []string{"xqy"}, false},
		{".verify --deep", "verify", []string{"--deep"}, false},
		{".open 'unterminated", "", nil, true},
		{".", "", nil, true},
		{". tables", "", nil, true},
		{"SELECT 1", "", nil, true},
	}
	for _, tt := range tests {
		name, args, err := repl.ParseDot(tt.in)
		if (err != nil) != tt.bad || name != tt.name || !reflect.DeepEqual(args, tt.args) {
			t.Errorf("ParseDot(%q) = %q, %q, %v", tt.in, name, args, err)
		}
	}
}
