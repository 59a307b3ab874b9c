package vtab

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// tableArgs are the parsed USING tet(...) arguments.
type tableArgs struct {
	schema, table string
	path, kind    string
	dataset       string
	formatTable   string // kind format_table: the name of the format's table
	datasetID     int    // with byID: the dataset's directory position
	byID          bool
	session       *Session   // the connection's, never from the arguments
	conn          *connState // the connection's (nil outside one, in tests)
}

// errSessionArg refuses the session=N argument older versions accepted:
// a table belongs to the session of the connection it is created on, and
// SQL must not reach another connection's session by naming its id.
var errSessionArg = fmt.Errorf("tet: the session argument is not accepted: a table belongs to the session of its connection")

// parseArgs reads argv: module, schema, table, then path, kind,
// [dataset or format table name]. The dataset may also be given unquoted
// as dataset_id=N (its directory position), for names SQL text cannot
// carry.
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
	usage := "usage: CREATE VIRTUAL TABLE t USING tet('file.tet', kind [, 'dataset']) with kind cells, agg, or a tet_ metadata table, " +
		"or tet('file', format_table, 'name') for a table the file's format has of its own"
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
	case a.kind == formatTableKind:
		if len(user) != 3 || a.byID {
			return a, fmt.Errorf("tet: table %q: kind %s needs the name of one of the format's tables; %s", a.table, a.kind, usage)
		}
		a.formatTable = user[2]
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

// connect makes the table args declare, for connection cs (nil: none,
// and no session).
func connect(ctx sqlitevt.Context, args []string, cs *connState) (sqlitevt.Table, error) {
	a, err := parseArgs(args)
	if err != nil {
		return nil, err
	}
	var sess *Session
	if cs != nil {
		sess = cs.session
	}
	a.session, a.conn = sess, cs
	h, err := openTable(sess, a)
	if err != nil {
		return nil, err
	}
	var t sqlitevt.Table
	if a.kind == "cells" {
		t, err = newCells(ctx, a, h)
	} else if a.kind == "agg" {
		t, err = newAgg(ctx, a, h)
	} else {
		k := metaKinds[a.kind]
		if a.kind == formatTableKind {
			k, err = formatKind(a, h)
		}
		if err == nil {
			t, err = newMeta(ctx, a, h, k)
		}
	}
	if err != nil {
		h.Close()
		return nil, err
	}
	sess.tableEvent()
	return t, nil
}

// readOnly implements sqlitevt.Refuser: every change is refused.
type readOnly struct{ name string }

// Refuse implements sqlitevt.Refuser.
func (r readOnly) Refuse(op string) error {
	panicPoint("xUpdate")
	return fmt.Errorf("tet: table %s is read-only: %s is not allowed (.tet files are never modified)", r.name, op)
}

// columnName quotes an identifier for a CREATE TABLE declaration.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteString quotes a string literal.
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
