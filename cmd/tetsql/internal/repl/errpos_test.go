package repl

import (
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

func TestErrorToken(t *testing.T) {
	tests := []struct {
		msg, tok string
		kind     errorKind
	}{
		{`near "FORM": syntax error`, "FORM", kindSyntax},
		{`near ")": syntax error`, ")", kindSyntax},
		{`unrecognized token: "'x"`, "'x", kindSyntax},
		{`no such table: temprature`, "temprature", kindTable},
		{`no such table: demo.temprature`, "demo.temprature", kindTable},
		{`no such column: a.valeu`, "a.valeu", kindColumn},
		{`no such function: avgg`, "avgg", kindFunction},
		{`ambiguous column name: time`, "time", kindOther},
		{`wrong number of arguments to function substr()`, "substr", kindOther},
		{`misuse of aggregate function avg()`, "avg", kindOther},
		{`too many arguments on temperature_agg() - max 3`, "temperature_agg", kindOther},
		{`incomplete input`, "", kindNone},
		{`statement time limit of 1ms exceeded`, "", kindNone},
		{"no such table: a\nand another error", "", kindNone},
	}
	for _, tt := range tests {
		tok, kind := errorToken(tt.msg)
		if tok != tt.tok || kind != tt.kind {
			t.Errorf("errorToken(%q) = %q, %d; want %q, %d", tt.msg, tok, kind, tt.tok, tt.kind)
		}
	}
}

// TestFindToken checks where the caret goes: the marked byte (the
// position of "@" in at, which is stmt with "@" inserted), or none.
func TestFindToken(t *testing.T) {
	tests := []struct {
		name, tok, at string // at: the statement with "@" before the token; no "@" = not found
	}{
		{"start", "FORM", "@FORM x"},
		{"middle", "temprature", "SELECT * FROM @temprature WHERE x = 1"},
		{"end", "valeu", "SELECT * FROM t ORDER BY @valeu"},
		{"case-insensitive", "temprature", "select * from @TEMPRATURE"},
		{"exact case first", "FORM", "SELECT form FROM t @FORM x"},
		{"whole word", "val", "SELECT value, valx, @val FROM t"},
		{"not in a string", "valeu", "SELECT 'valeu', x FROM t WHERE @valeu > 1"},
		{"not in a string with a quote", "valeu", "SELECT 'it''s valeu' AS a, @valeu"},
		{"not in a comment", "valeu", "SELECT /* valeu */ x -- valeu\n, @valeu FROM t"},
		{"quoted identifier", "valeu", `SELECT "@valeu" FROM t`},
		{"not inside a quoted name", "foo", `SELECT "foo bar", @foo FROM t`},
		{"not inside a backquoted name", "foo", "SELECT `bar foo`, @foo FROM t"},
		{"not inside a bracketed name", "foo", "SELECT [foo-x], @foo FROM t"},
		{"whole quoted name", "foo bar", `SELECT foo, "@foo bar" FROM t`},
		{"whole bracketed name", "foo", "SELECT x AS [@foo] FROM t"},
		{"quoted name with a doubled quote", `a"b`, `SELECT a, "@a""b" FROM t`},
		{"doubled quote does not end the name", "b", `SELECT "a"" b", @b FROM t`},
		{"quoted token at its quote", `"foo bar"`, `SELECT 1 @"foo bar"`},
		{"string token", "'x", "SELECT @'x"},
		{"symbol", ")", "SELECT f(1@)"},
		{"qualified as written", "demo.temprature", "SELECT * FROM @demo.temprature"},
		{"qualified, quoted", "demo.temprature", `SELECT * FROM demo."@temprature"`},
		{"multi-line", "temprature", "SELECT *\nFROM @temprature\nWHERE x = 1"},
		{"only in a string", "valeu", "SELECT 'valeu'"},
		{"only in a comment", "x", "SELECT 1 -- x"},
		{"absent", "nope", "SELECT 1"},
		{"part of a word", "val", "SELECT value FROM t"},
	}
	for _, tt := range tests {
		want := strings.Index(tt.at, "@")
		stmt := strings.Replace(tt.at, "@", "", 1)
		if got := findToken(stmt, tt.tok); got != want {
			t.Errorf("%s: findToken(%q, %q) = %d, want %d", tt.name, stmt, tt.tok, got, want)
		}
	}
}

func TestPointAt(t *testing.T) {
	long := "SELECT " + strings.Repeat("a, ", 40) + "valeu, " + strings.Repeat("b, ", 40) + "c FROM t"
	tests := []struct {
		name  string
		stmt  string
		tok   string
		width int
		want  string
	}{
		{"one line", "SELECT * FROM temprature WHERE x = 1", "temprature", 0,
			"  SELECT * FROM temprature WHERE x = 1\n" +
				"                ^"},
		{"first token", "FORM x", "FORM", 0,
			"  FORM x\n" +
				"  ^"},
		{"multi-line", "SELECT *\n  FROM temprature\n WHERE x = 1", "temprature", 0,
			"  LINE 2:   FROM temprature\n" +
				"                 ^"},
		{"tabs count as one blank", "SELECT\t*\tFROM\ttemprature", "temprature", 0,
			"  SELECT * FROM temprature\n" +
				"                ^"},
		{"wide characters", "SELECT '日本' AS a, valeu", "valeu", 0,
			"  SELECT '日本' AS a, valeu\n" +
				"                      ^"},
		{"long line, window around the token", long, "valeu", 60,
			"  …a, a, a, a, a, a, valeu, b, b, b, b, b, b, b, b, b, b, …\n" +
				"                     ^"},
		{"long line, token near the start", long, "SELECT", 40,
			"  SELECT a, a, a, a, a, a, a, a, a, a,…\n" +
				"  ^"},
		{"long line, token at the end", long, "t", 40,
			"  … b, b, b, b, b, b, b, b, b, c FROM t\n" +
				"                                      ^"},
	}
	for _, tt := range tests {
		off := findToken(tt.stmt, tt.tok)
		got := pointAt(tt.stmt, off, tt.width)
		if got != tt.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", tt.name, got, tt.want)
		}
		// Independently: the caret stands under the token in the line
		// shown, which fits the width.
		line, caret, _ := strings.Cut(got, "\n")
		if i := strings.Index(line, tt.tok); i < 0 || output.TextWidth(line[:i]) != len(caret)-1 {
			t.Errorf("%s: caret at column %d, token at byte %d of %q", tt.name, len(caret)-1, i, line)
		}
		if w := tt.width; w > 0 && output.TextWidth(line) >= w {
			t.Errorf("%s: line %q not narrower than %d", tt.name, line, w)
		}
	}
	if got := pointAt("SELECT 1", -1, 0); got != "" {
		t.Errorf("no token: %q, want nothing", got)
	}
}
