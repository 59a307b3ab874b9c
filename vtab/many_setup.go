package vtab

import (
	"fmt"
	"strings"

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// ManyModuleName is the module of many-file tables:
//
//	CREATE VIRTUAL TABLE t USING tet_many('glob', 'dataset' [, 'on_error=skip'] [, 'kind=agg'])
//
// One table over the dataset of every file the glob matches, with a TEXT
// column file and one TEXT column per hive key=value path segment before
// the dims, labels and value of a cells table (kind=agg: the columns of
// an aggregate table). See docs/SQL.md, "Many files as one table".
const ManyModuleName = "tet_many"

// MaxManyFiles bounds the files one glob may match.
const MaxManyFiles = MaxFiles

// manyArgs are the parsed tet_many arguments.
type manyArgs struct {
	schema, table string
	pattern       string
	dataset       string
	skip          bool // on_error=skip
	agg           bool // kind=agg
	session       *Session
	conn          *connState
}

// parseManyArgs reads argv: module, schema, table, then the pattern, the
// dataset and options.
func parseManyArgs(args []string) (manyArgs, error) {
	var a manyArgs
	usage := "usage: CREATE VIRTUAL TABLE t USING tet_many('dir/**/*.tet', 'dataset' [, 'on_error=skip'] [, 'kind=agg'])"
	if len(args) < 3 {
		return a, fmt.Errorf("tet: missing arguments; %s", usage)
	}
	a.schema, a.table = args[1], args[2]
	var user []string
	for _, s := range args[3:] {
		user = append(user, unquote(strings.TrimSpace(s)))
	}
	if len(user) < 2 {
		return a, fmt.Errorf("tet: table %q: need a glob and a dataset name; %s", a.table, usage)
	}
	a.pattern, a.dataset = user[0], user[1]
	for _, o := range user[2:] {
		k, v, _ := strings.Cut(o, "=")
		switch k, v = strings.ToLower(strings.TrimSpace(k)), strings.ToLower(strings.TrimSpace(v)); {
		case k == "on_error" && (v == "skip" || v == "fail"):
			a.skip = v == "skip"
		case k == "kind" && (v == "agg" || v == "cells"):
			a.agg = v == "agg"
		default:
			return a, fmt.Errorf("tet: table %q: unknown option %q (on_error=skip|fail, kind=cells|agg); %s", a.table, o, usage)
		}
	}
	if a.pattern == "" {
		return a, fmt.Errorf("tet: table %q: empty glob; %s", a.table, usage)
	}
	return a, nil
}

// ManySetupSQL returns the statements that attach the files pattern
// matches as schema alias on one connection: per dataset name a cells
// table and its _agg companion, each over every file holding the
// dataset (names as [TableNames] makes them for one file). datasets
// are the names [ManyDatasets] found. skip adds on_error=skip.
func ManySetupSQL(alias, pattern string, datasets []string, skip bool) []string {
	q := quoteIdent(alias)
	p := quoteString(pattern)
	opt := ""
	if skip {
		opt = ", 'on_error=skip'"
	}
	stmts := []string{fmt.Sprintf("ATTACH DATABASE ':memory:' AS %s", q)}
	taken := map[string]bool{}
	claim := func(base string) string {
		name := base
		for k := 2; taken[asciiLower(name)]; k++ {
			name = fmt.Sprintf("%s_%d", base, k)
		}
		taken[asciiLower(name)] = true
		return name
	}
	var names []string
	for _, d := range datasets {
		names = append(names, claim(tableBase(d)))
	}
	cells := map[string]bool{}
	for _, n := range names {
		cells[asciiLower(n)] = true
	}
	for i, d := range datasets {
		stmts = append(stmts, fmt.Sprintf("CREATE VIRTUAL TABLE %s.%s USING %s(%s, %s%s)",
			q, quoteIdent(names[i]), ManyModuleName, p, quoteString(d), opt))
	}
	for i, d := range datasets {
		if agg := names[i] + "_agg"; !cells[asciiLower(agg)] {
			stmts = append(stmts, fmt.Sprintf("CREATE VIRTUAL TABLE %s.%s USING %s(%s, %s%s, 'kind=agg')",
				q, quoteIdent(claim(agg)), ManyModuleName, p, quoteString(d), opt))
		}
	}
	return stmts
}

// ManyDatasets lists the files pattern matches and returns the dataset
// names they hold, in the order first found (files in sorted order), and
// how many files matched. Each file is opened through the session's
// registry and closed again. A file that cannot be opened is an error
// naming it; with skip it is left out with a warning (Session.Warn).
// Dataset names SQL text cannot carry (a NUL byte) are left out.
func ManyDatasets(sess *Session, pattern string, skip bool) (names []string, files int, err error) {
	if sess == nil || sess.Registry == nil {
		return nil, 0, fmt.Errorf("tet: %s: no session to open files with", pattern)
	}
	l, err := listMany(sess, pattern)
	if err != nil {
		return nil, 0, err
	}
	seen := map[string]bool{}
	for _, f := range l.files {
		if err := sess.Interrupted(); err != nil {
			return nil, 0, err
		}
		h, err := sess.Registry.Open(f.path)
		if err != nil {
			if !skip {
				if !strings.Contains(err.Error(), f.path) {
					err = fmt.Errorf("tet: %s: %w", f.path, err)
				}
				return nil, 0, err
			}
			sess.Warning(skipWarning(f.path, err))
			continue
		}
		for _, a := range h.Source().Arrays() {
			if n := a.Info().Name; !seen[n] && sqlSafe(n) {
				seen[n] = true
				names = append(names, n)
			}
		}
		h.Close()
	}
	return names, len(l.files), nil
}

// manyModule is the tet_many module of one connection.
type manyModule struct{ conn *connState }

// Create implements sqlitevt.Module.
func (m *manyModule) Create(ctx sqlitevt.Context, args []string) (sqlitevt.Table, error) {
	panicPoint("xCreate")
	return connectMany(ctx, args, m.conn)
}

// Connect implements sqlitevt.Module.
func (m *manyModule) Connect(ctx sqlitevt.Context, args []string) (sqlitevt.Table, error) {
	panicPoint("xConnect")
	return connectMany(ctx, args, m.conn)
}

// Panicked implements sqlitevt.PanicHandler for xCreate and xConnect.
func (m *manyModule) Panicked(where string, p any) error {
	return internalError(ManyModuleName, where, p)
}

// InListColumn implements sqlitevt.InLister: IN lists on file columns are
// read whole (they choose files; an aggregate gives one merged result
// over every listed value). A cells table leaves the IN term to SQLite to
// re-check whole: run once per value, SQLite would re-check each value
// under the column's TEXT affinity, where the IN itself may compare
// numerically (month IN (SELECT an INTEGER column) holds for '01' and 1).
// On the inner columns, as one file's table does.
func (t *manyTable) InListColumn(col int) bool {
	if col < t.nfix {
		return col >= 0
	}
	if t.tmpl.agg == nil {
		return t.tmpl.cells.InListColumn(col - t.nfix)
	}
	return t.tmpl.agg.InListColumn(col - t.nfix)
}

// InListFits implements sqlitevt.InLister.
func (t *manyTable) InListFits(n, bytes int64) error { return t.tmpl.at.InListFits(n, bytes) }

// skipWarning is the warning line of a file skipped by on_error=skip:
// "skipped PATH: reason", the reason being what the error says after its
// last mention of the path, so that the same file skipped for the same
// reason gives the same line wherever it was found (listing the
// datasets, planning, scanning) and a caller may show it once.
func skipWarning(path string, err error) string {
	msg := err.Error()
	for _, sep := range []string{path + ": ", path + "): "} {
		if i := strings.LastIndex(msg, sep); i >= 0 {
			msg = msg[i+len(sep):]
			break
		}
	}
	return "skipped " + path + ": " + msg
}
