package repl

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tetsql/tetsql"
)

// .parameter: sqlite3's table of values bound to the parameters of
// statements. sqlite3 keeps it in temp.sqlite_parameters; the shell keeps
// it in memory, so that it works in safe mode, where CREATE is refused.

// param is one value of the table and its SQL literal (quote()).
type param struct {
	value   any // nil, int64, float64, string or []byte
	literal string
}

// params maps a parameter name as written (":x", "$x", "@x", "?1") to
// its value.
type params map[string]param

func (s *Shell) dotParameter(ctx context.Context, args []string) error {
	usage := errors.New("usage: .parameter init|list|clear|set NAME VALUE|unset NAME")
	switch sub := strings.ToLower(args[0]); {
	case sub == "init" && len(args) == 1:
		if s.params == nil {
			s.params = params{}
		}
	case sub == "clear" && len(args) == 1:
		clear(s.params)
	case sub == "list" && len(args) == 1:
		return s.params.list(s)
	case sub == "unset" && len(args) == 2:
		delete(s.params, args[1])
	case sub == "set" && len(args) == 3:
		if err := checkParamName(args[1]); err != nil {
			return err
		}
		p, err := s.evalParam(ctx, args[2])
		if err != nil {
			return err
		}
		if s.params == nil {
			s.params = params{}
		}
		s.params[args[1]] = p
	default:
		return usage
	}
	return nil
}

// checkParamName accepts a parameter as SQL writes it: ?N (N from 1),
// or :NAME, @NAME, $NAME.
func checkParamName(name string) error {
	if len(name) >= 2 {
		switch name[0] {
		case '?':
			if n, err := strconv.Atoi(name[1:]); err == nil && n >= 1 && name[1] != '0' && name[1] != '+' {
				return nil
			}
		case ':', '@', '$':
			return nil
		}
	}
	return fmt.Errorf("parameter name %q: write it as the SQL does, :x, $x, @x or ?1", name)
}

// evalParam evaluates VALUE as sqlite3 does: as an SQL expression
// (SELECT VALUE: 42, 2.5, 'text', X'00ff', NULL, 1+1, :x*2 with the
// values set so far), or, when it is no expression SQLite can prepare,
// as the text itself (.parameter set :city Paris). An expression that
// prepares but fails (integer overflow), or that safe mode refuses, is
// an error. Only one expression is evaluated: a ';' in VALUE is an
// error rather than a second statement.
func (s *Shell) evalParam(ctx context.Context, value string) (param, error) {
	q := "SELECT\n" + value + "\n"
	if stmts, rest := splitScript(q); len(stmts) > 1 || len(stmts) == 1 && strings.TrimSpace(rest) != "" {
		return param{}, fmt.Errorf(".parameter set: VALUE %q is more than one expression", value)
	}
	var vals []any
	_, perr := tetsql.Parameters(ctx, s.conn, q) // does it prepare?
	args, err := s.bindArgs(ctx, q)              // VALUE may use the parameters set so far
	if err != nil {
		return param{}, err
	}
	rows, err := s.conn.QueryContext(ctx, q, args...)
	switch {
	case err != nil && (perr == nil || errors.Is(err, tetsql.ErrNotAllowed) || ctx.Err() != nil):
		return param{}, fmt.Errorf(".parameter set: %w", err)
	case err != nil:
		vals = []any{value} // no expression: the text, as sqlite3 takes it
	default:
		cols, _ := rows.Columns()
		if len(cols) != 1 {
			vals = []any{value}
		} else if rows.Next() {
			var v any
			if err := rows.Scan(&v); err != nil {
				rows.Close()
				return param{}, err
			}
			vals = []any{v}
		} else {
			vals = []any{nil} // a subquery without rows
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return param{}, fmt.Errorf(".parameter set: %w", err)
		}
	}
	p := param{value: vals[0]}
	if err := s.conn.QueryRowContext(ctx, "SELECT quote(?)", p.value).Scan(&p.literal); err != nil {
		return param{}, err
	}
	return p, nil
}

// list prints "NAME LITERAL" lines, sorted by name, as sqlite3's
// .parameter list does.
func (ps params) list(s *Shell) error {
	keys := make([]string, 0, len(ps))
	width := 0
	for k := range ps {
		keys = append(keys, k)
		width = max(width, len(k))
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, err := fmt.Fprintf(s.opt.Stdout, "%-*s %s\n", width, k, ps[k].literal); err != nil {
			return err
		}
	}
	return nil
}

// mayHaveParams tells cheaply that q has no parameter: it holds none of
// the characters that start one.
func mayHaveParams(q string) bool { return strings.ContainsAny(q, "?:@$") }

// bindArgs returns the arguments that bind q's parameters to the values
// of the table, as sqlite3 binds them: by name as written, an anonymous
// "?" as "?N" (its index); a parameter without a value is NULL. A
// statement without parameters gets none, so it runs as it would without
// the table. A statement SQLite cannot prepare gets none either: it then
// fails as it would have with its own error.
//
// database/sql passes a name without its prefix, and modernc's driver
// finds ?N and $N (N digits) by position: the arguments are laid out by
// parameter index so that each finds its own, and what cannot be told
// apart that way (:x and $x in one statement; $N not at index N) is an
// error rather than a wrong value.
func (s *Shell) bindArgs(ctx context.Context, q string) ([]any, error) {
	if !mayHaveParams(q) {
		return nil, nil
	}
	names, err := tetsql.Parameters(ctx, s.conn, q)
	if err != nil || len(names) == 0 {
		return nil, nil
	}
	args := make([]any, len(names))
	seen := map[string]string{} // name without prefix → name as written
	for i, name := range names {
		key := name
		if key == "" {
			key = "?" + strconv.Itoa(i+1)
		}
		v := s.params[key].value
		switch {
		case name == "" || name[0] == '?':
			args[i] = v
		case name[0] == '$' && isDigits(name[1:]):
			if name[1:] != strconv.Itoa(i+1) {
				return nil, fmt.Errorf("parameter %s is parameter %d of the statement and cannot be bound by number: name it ?%d, or :%s", name, i+1, i+1, "p"+name[1:])
			}
			args[i] = v
		default:
			bare := name[1:]
			if r, _ := utf8.DecodeRuneInString(bare); !unicode.IsLetter(r) {
				return nil, fmt.Errorf("parameter %s cannot be bound: its name must begin with a letter", name)
			}
			if other, ok := seen[bare]; ok && other != name {
				return nil, fmt.Errorf("parameters %s and %s in one statement cannot be told apart when bound: rename one", other, name)
			}
			seen[bare] = name
			args[i] = sql.Named(bare, v)
		}
	}
	return args, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
