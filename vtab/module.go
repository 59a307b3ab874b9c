package vtab

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"modernc.org/sqlite/vtab"
)

// ModuleName is the name the module is registered under.
const ModuleName = "tet"

var registerOnce sync.Once
var registerErr error

// Register prepares the binding named by [Binding]. It registers nothing
// process-wide: the "tet" module and tet_last_scan() exist only on the
// connections [Open] (or [Connector]) opens. It is idempotent.
func Register() error {
	registerOnce.Do(func() { registerErr = register() })
	return registerErr
}

// module is the module as the fallback binding (modernc's vtab package)
// sees it: one per fallback driver (open.go), whose connections' tables
// belong to the driver's session.
type module struct{ fd *fallbackDriver }

func (m module) Create(ctx vtab.Context, args []string) (vtab.Table, error) {
	return copyArgs(connect(ctx, args, m.fd.current()))
}
func (m module) Connect(ctx vtab.Context, args []string) (vtab.Table, error) {
	return copyArgs(connect(ctx, args, m.fd.current()))
}

// VolatileArgs makes modernc read TEXT arguments of Filter with their
// length: by default it reads them as C strings, which cuts a label or
// dataset name at its first NUL byte and would select the wrong one.
// Volatile values alias SQLite's memory, so copyArgsCursor copies them
// before the tables (which may keep them) see them.
func (module) VolatileArgs() bool { return true }

// copyArgsTable hands out cursors that copy volatile Filter arguments.
type copyArgsTable struct {
	vtab.Table
	vtab.Updater
}

func copyArgs(t vtab.Table, err error) (vtab.Table, error) {
	if err != nil {
		return nil, err
	}
	return copyArgsTable{t, t.(vtab.Updater)}, nil
}

// tableSession is the wrapped table's session (see sessionOf).
func (t copyArgsTable) tableSession() *Session { return sessionOf(t.Table) }

func (t copyArgsTable) Open() (vtab.Cursor, error) {
	c, err := t.Table.Open()
	if err != nil {
		return nil, err
	}
	return copyArgsCursor{c}, nil
}

type copyArgsCursor struct{ vtab.Cursor }

func (c copyArgsCursor) Filter(idxNum int, idxStr string, vals []vtab.Value) error {
	for i, v := range vals {
		switch x := v.(type) {
		case string:
			vals[i] = strings.Clone(x)
		case []byte:
			vals[i] = bytes.Clone(x)
		}
	}
	return c.Cursor.Filter(idxNum, idxStr, vals)
}

// tableArgs are the parsed USING tet(...) arguments.
type tableArgs struct {
	schema, table string
	path, kind    string
	dataset       string
	datasetID     int // with byID: the dataset's directory position
	byID          bool
	session       *Session // the connection's, never from the arguments
}

// errSessionArg refuses the session=N argument older versions accepted:
// a table belongs to the session of the connection it is created on, and
// SQL must not reach another connection's session by naming its id.
var errSessionArg = fmt.Errorf("tet: the session argument is not accepted: a table belongs to the session of its connection")

// parseArgs reads argv: module, schema, table, then path, kind,
// [dataset]. The dataset may also be given unquoted as dataset_id=N (its
// directory position), for names SQL text cannot carry.
func parseArgs(args []string) (tableArgs, error) {
	var a tableArgs
	if len(args) < 3 {
		return a, fmt.Errorf("tet: missing arguments")
	}
	a.schema, a.table = args[1], args[2]
	user := make([]string, 0, len(args)-3)
	for _, s := range args[3:] {
		s = strings.TrimSpace(s)
		if strings.HasPrefix(strings.ToLower(s), "session") {
			if k, _, ok := strings.Cut(s, "="); ok && strings.TrimSpace(strings.ToLower(k)) == "session" {
				return a, errSessionArg
			}
		}
		if strings.HasPrefix(s, "dataset_id=") {
			id, err := strconv.Atoi(s[len("dataset_id="):])
			if err != nil || id < 0 || a.byID {
				return a, fmt.Errorf("tet: table %q: bad argument %q", a.table, s)
			}
			a.datasetID, a.byID = id, true
			continue
		}
		user = append(user, unquote(s))
	}
	usage := "usage: CREATE VIRTUAL TABLE t USING tet('file.tet', kind [, 'dataset']) with kind cells, agg, or a tet_ metadata table"
	if len(user) < 2 {
		return a, fmt.Errorf("tet: table %q: need a file path and a table kind; %s", a.table, usage)
	}
	a.path, a.kind = user[0], user[1]
	switch {
	case (a.kind == "cells" || a.kind == "agg") && a.byID:
		if len(user) != 2 {
			return a, fmt.Errorf("tet: table %q: kind %s takes a dataset name or dataset_id, not both; %s", a.table, a.kind, usage)
		}
	case a.kind == "cells" || a.kind == "agg":
		if len(user) != 3 {
			return a, fmt.Errorf("tet: table %q: kind %s needs a dataset name; %s", a.table, a.kind, usage)
		}
		a.dataset = user[2]
	case metaKinds[a.kind] != nil:
		if len(user) != 2 || a.byID {
			return a, fmt.Errorf("tet: table %q: kind %s takes no dataset; %s", a.table, a.kind, usage)
		}
	default:
		return a, fmt.Errorf("tet: table %q: unknown kind %q; %s", a.table, a.kind, usage)
	}
	return a, nil
}

// unquote strips one level of SQL quoting ('…', "…", […], `…`).
func unquote(s string) string {
	if len(s) >= 2 {
		q, e := s[0], s[len(s)-1]
		switch {
		case (q == '\'' || q == '"' || q == '`') && e == q:
			return strings.ReplaceAll(s[1:len(s)-1], string(q)+string(q), string(q))
		case q == '[' && e == ']':
			return s[1 : len(s)-1]
		}
	}
	return s
}

// connect makes the table args declare, for a connection whose session
// is sess (nil: none).
func connect(ctx vtab.Context, args []string, sess *Session) (vtab.Table, error) {
	a, err := parseArgs(args)
	if err != nil {
		return nil, err
	}
	a.session = sess
	h, err := openTable(sess, a)
	if err != nil {
		return nil, err
	}
	var t vtab.Table
	if a.kind == "cells" {
		t, err = newCells(ctx, a, h)
	} else if a.kind == "agg" {
		t, err = newAgg(ctx, a, h)
	} else {
		t, err = newMeta(ctx, a, h)
	}
	if err != nil {
		h.Close()
		return nil, err
	}
	sess.tableEvent()
	return t, nil
}

// readOnly implements vtab.Updater by refusing every change.
type readOnly struct{ name string }

func (r readOnly) err(op string) error {
	return fmt.Errorf("tet: table %s is read-only: %s is not allowed (.tet files are never modified)", r.name, op)
}

func (r readOnly) Insert([]vtab.Value, *int64) error        { return r.err("INSERT") }
func (r readOnly) Update(int64, []vtab.Value, *int64) error { return r.err("UPDATE") }
func (r readOnly) Delete(int64) error                       { return r.err("DELETE") }

// columnName quotes an identifier for a CREATE TABLE declaration.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteString quotes a string literal.
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
