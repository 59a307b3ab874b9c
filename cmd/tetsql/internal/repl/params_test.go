package repl_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// TestParameter: .parameter set/list/unset/clear and the binding of the
// values to statements, checked against what sqlite3 3.40 prints for
// the same commands.
func TestParameter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cmds []string
		want string // stdout, exactly
	}{
		{name: "sqlite3's example", cmds: []string{
			".parameter set :x 5", ".param set $y hello", ".param set @z X'0102'", `.param set ?1 "'a b'"`, ".param set :w 1+",
			".param list", "SELECT :x, $y, hex(@z), ?1, :nope, ?"},
			// ?1 is :x here (the first parameter), ? the fifth: NULL.
			want: "$y 'hello'\n:w '1+'\n:x 5\n?1 'a b'\n@z X'0102'\n" +
				":x,$y,hex(@z),?1,:nope,?\n5,hello,0102,5,NA,NA\n"},
		{name: "expressions and types", cmds: []string{".param set :a 2.5", ".param set :b 1+1", ".param set :c NULL", ".param set :d \"'it''s'\"",
			`.param set :e "(SELECT count(*) FROM temperature)"`, ".param list", "SELECT typeof(:a), typeof(:b), typeof(:c), :d, :e"},
			want: ":a 2.5\n:b 2\n:c NULL\n:d 'it''s'\n:e 6\ntypeof(:a),typeof(:b),typeof(:c),:d,:e\nreal,integer,null,it's,6\n"},
		{name: "a word is text, as in sqlite3", cmds: []string{".param set :city Paris", ".param set :two 'two words'", "SELECT :city || '/' || :two AS s"},
			want: "s\nParis/two words\n"},
		{name: "anonymous ? is ?N", cmds: []string{".param set ?2 20", ".param set ?1 10", "SELECT ?, ?, ?"}, want: "?,?,?\n10,20,NA\n"},
		{name: "unset and clear", cmds: []string{".param set :x 1", ".param set :y 2", ".param unset :x", ".param list", "SELECT :x, :y", ".param clear", ".param list", "SELECT :y AS y"},
			want: ":y 2\n:x,:y\nNA,2\ny\nNA\n"},
		{name: "a value from another", cmds: []string{".param set :x 20", ".param set :y :x*2+2", ".param set :x 1", "SELECT :x, :y"}, want: ":x,:y\n1,42\n"},
		{name: "replaced", cmds: []string{".param set :x 1", ".param set :x 'b'", "SELECT :x AS x"}, want: "x\nb\n"},
		{name: "init, an empty list", cmds: []string{".param init", ".param list", "SELECT 1 AS one"}, want: "one\n1\n"},
		{name: "no parameters: unaffected", cmds: []string{".param set :x 1", "SELECT count(*) AS n FROM temperature WHERE d0 = 1", "SELECT '?:x' AS s -- :x"},
			want: "n\n3\ns\n?:x\n"},
		{name: "a cells table's WHERE", cmds: []string{".param set :row 1", ".param set $min 4.5", "SELECT d1, value FROM temperature WHERE d0 = :row AND value > $min ORDER BY d1"},
			want: "d1,value\n1,5.0\n2,6.0\n"},
		{name: "an aggregate (answered from _agg)", cmds: []string{".param set @r 1", "SELECT d1, sum(value) AS s FROM temperature WHERE d0 = @r GROUP BY d1"},
			want: "d1,s\n0,4.0\n1,5.0\n2,6.0\n"},
		{name: "the same statement with literals", cmds: []string{"SELECT d1, sum(value) AS s FROM temperature WHERE d0 = 1 GROUP BY d1"},
			want: "d1,s\n0,4.0\n1,5.0\n2,6.0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, repl.Options{Header: true, Null: "NA"}, ref("sample.tet"))
			e.exec(t, tt.cmds...)
			if got := e.stdout.String(); got != tt.want {
				t.Errorf("stdout\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestParameter_errors: what .parameter refuses, and statements whose
// parameters cannot be bound faithfully.
func TestParameter_errors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cmds []string
		err  string
	}{
		{[]string{".param set x 1"}, `parameter name "x": write it as the SQL does`},
		{[]string{".param set ?0 1"}, `parameter name "?0"`},
		{[]string{`.param set :x "1); SELECT 2"`}, "more than one expression"},
		{[]string{".param set :x \"1; SELECT 2\""}, "more than one expression"},
		{[]string{`.param set :x "(SELECT abs(-9223372036854775808))"`}, "integer overflow"},
		{[]string{".param bogus"}, "usage: .parameter"},
		{[]string{".param set :x"}, "usage: .parameter"},
		{[]string{".param set :x 1", ".param set $x 2", "SELECT :x, $x"}, "parameters :x and $x in one statement cannot be told apart"},
		{[]string{"SELECT ?, $1"}, "parameter $1 is parameter 2"},
		{[]string{"SELECT :_x"}, "parameter :_x cannot be bound"},
	}
	for _, tt := range tests {
		e := newEnv(t, repl.Options{Header: true}, ref("sample.tet"))
		var err error
		for _, c := range tt.cmds {
			if err = e.sh.Exec(context.Background(), c); err != nil {
				break
			}
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%q: %v, want %q", tt.cmds, err, tt.err)
		}
	}
}

// TestParameter_binary: a statement with parameters written as Parquet
// or Arrow takes the ordinary path (the fast one takes no arguments) and
// gets its parameters' rows.
func TestParameter_binary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, repl.Options{}, demoFile())
	var want int64
	if err := e.conn.QueryRowContext(context.Background(), "SELECT count(*) FROM temperature WHERE station = 3").Scan(&want); err != nil || want == 0 {
		t.Fatalf("count: %d, %v", want, err)
	}
	const q = "SELECT time, station, value FROM temperature WHERE station = :s"
	e.exec(t, ".param set :s 3", ".once "+filepath.Join(dir, "p.parquet"), q, ".once "+filepath.Join(dir, "a.arrows"), q)
	if n, _ := parquetRows(t, []byte(readFile(t, filepath.Join(dir, "p.parquet")))); n != want {
		t.Errorf("Parquet: %d rows, want %d", n, want)
	}
	if n, _ := arrowRows(t, []byte(readFile(t, filepath.Join(dir, "a.arrows"))), false); n != want {
		t.Errorf("Arrow: %d rows, want %d", n, want)
	}
}

// TestParameter_safe: .parameter works in safe mode, and evaluating a
// VALUE is held to it like any statement: a refused function is an
// error, not text.
func TestParameter_safe(t *testing.T) {
	t.Parallel()
	e := newEnv(t, repl.Options{Header: true, Safe: true}, ref("sample.tet"))
	e.exec(t, ".param set :x 41+1", "SELECT :x AS x")
	if got := e.stdout.String(); got != "x\n42\n" {
		t.Errorf("stdout %q", got)
	}
	for _, tc := range []struct {
		cmd     string
		refusal bool // a safe-mode refusal, not another error
	}{
		{".param set :f \"load_extension('x')\"", true},
		{".param set :f \"(SELECT count(*) FROM tet_files('/etc/*'))\"", true},
		{".param set :f \"1); ATTACH 'x.db' AS y; --\"", false},
	} {
		err := e.sh.Exec(context.Background(), tc.cmd)
		if err == nil || errors.Is(err, tetsql.ErrNotAllowed) != tc.refusal {
			t.Errorf("%s: %v", tc.cmd, err)
		}
	}
	e.exec(t, ".param list")
	if got := e.stdout.String(); got != "x\n42\n:x 42\n" {
		t.Errorf("after the refusals: %q", got)
	}
}
