package repl

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/tetsql/tetsql"
)

func TestTidy(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SQL logic error: no such table: x (1)", "no such table: x"},
		{"tetsql: open nosuch.tet: tet: stat nosuch.tet: no such file or directory", "open nosuch.tet: no such file or directory"},
		{"stat /x.tet: no such file or directory", "open /x.tet: no such file or directory"},
		{"tetsql: open a.tet: a.tet: tetcore: superblock: unknown flags 0xfe: unsupported", "open a.tet: superblock: unknown flags 0xfe: unsupported"},
		{`tet: c.temperature: tetcore: dataset "temperature" chunk [0 1]: chunk decode failed`, `c.temperature: dataset "temperature" chunk [0 1]: chunk decode failed`},
		{`tetsql: alias "1x": use letters, digits and _`, `alias "1x": use letters, digits and _`},
		{`invalid argument "abc" for "--max-rows" flag: strconv.ParseInt: parsing "abc": invalid syntax`, `invalid argument "abc" for "--max-rows" flag: "abc" is not a number`},
		{`strconv.ParseInt: parsing "99999999999999999999": value out of range`, `"99999999999999999999" is out of range`},
		{`strconv.ParseBool: parsing "maybe": invalid syntax`, `"maybe" is not true or false`},
		{`invalid argument "x" for "--t" flag: time: invalid duration "x"`, `invalid argument "x" for "--t" flag: invalid duration "x"`},
		{"sql: expected 1 arguments, got 0", "expected 1 arguments, got 0"},
		{"driver: bad connection", "connection lost"},
		{"context canceled", "interrupted"},
		{"read x: context deadline exceeded", "read x: time limit exceeded"},
		{"output /proc/x.csv: open /proc/x.csv: no such file or directory", "output /proc/x.csv: no such file or directory"},
		{"init file /nonexist: open /nonexist: no such file or directory", "init file /nonexist: no such file or directory"},
		{"init file /tmp: /tmp: is a directory", "init file /tmp: is a directory"},
		{"stdin:1: /tmp: read /tmp: is a directory", "stdin:1: /tmp: is a directory"},
		{"q.sql:2: output a b.csv: write a b.csv: no space left on device", "q.sql:2: output a b.csv: no space left on device"},
		// Left alone: a last part that happens to be a package's name, a
		// prefix not at a boundary, SQLite's own words.
		{"ambiguous column name: tet", "ambiguous column name: tet"},
		{`near ":": syntax error`, `near ":": syntax error`},
		{"no such table: demo.tet_file", "no such table: demo.tet_file"},
		{"open x.csv: permission denied", "open x.csv: permission denied"},
		{"no such column: x: x", "no such column: x: x"},
		{"output a.csv: open b.csv: permission denied", "output a.csv: open b.csv: permission denied"},
	}
	for _, tt := range tests {
		if got := tidy(tt.in); got != tt.want {
			t.Errorf("tidy(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// TestMessage: the caret follows the message; the error chain is kept.
func TestMessage(t *testing.T) {
	inner := fmt.Errorf("tetsql: %w", fs.ErrNotExist)
	e := &stmtError{err: inner, msg: "no such table: x — did you mean y?", where: "  SELECT * FROM x\n                ^"}
	wrapped := &scriptError{name: "q.sql", line: 3, err: e}
	if got, want := Message(wrapped), "q.sql:3: no such table: x — did you mean y?\n  SELECT * FROM x\n                ^"; got != want {
		t.Errorf("Message = %q, want %q", got, want)
	}
	if !errors.Is(wrapped, fs.ErrNotExist) {
		t.Error("the statement's error is lost from the chain")
	}
	notAllowed := fmt.Errorf("x: %w", &tetsql.NotAllowedError{What: "ATTACH"})
	if got := (&Shell{}).explain(context.Background(), "ATTACH 'x' AS y", notAllowed); got != notAllowed {
		t.Errorf("explain changed a refusal: %v", got)
	}
}
