package tetsql

import (
	"errors"
	"strconv"
	"strings"
	"sync"

	sqlite "modernc.org/sqlite"

	"github.com/tetsql/tetsql/internal/sqlitevt"
	"github.com/tetsql/tetsql/vtab"
)

// Safe mode (Config.Safe, DSN option safe=1) is for SQL written by
// someone the program does not trust. An authorizer, which SQLite asks
// about every operation while it compiles a statement, lets through only
// what reads the schemas the connection already has: SELECT (with CTEs,
// window functions, the tet tables, the _agg table-valued form), the
// harmless functions and the introspection PRAGMAs below. Everything that
// could write a file, open a new path, load code, or change the schema a
// later statement (or the next user of a pooled connection) sees is
// refused before the statement runs.

// ErrNotAllowed is matched (errors.Is) by every statement safe mode
// refuses.
var ErrNotAllowed = errors.New("not allowed in safe mode")

// NotAllowedError is the error of a statement safe mode refuses; What
// names the refused operation ("ATTACH", "CREATE TEMP VIEW",
// "PRAGMA writable_schema", "load_extension", …).
type NotAllowedError struct{ What string }

// Error names the refused operation.
func (e *NotAllowedError) Error() string { return "not allowed in safe mode: " + e.What }

// Is makes errors.Is(err, ErrNotAllowed) hold.
func (e *NotAllowedError) Is(target error) bool { return target == ErrNotAllowed }

// readPragmas are the PRAGMAs safe mode allows without an argument: they
// only report. database_list shows the paths of the files already
// attached, which the operator chose; it opens nothing.
var readPragmas = map[string]bool{
	"database_list": true, "function_list": true, "module_list": true,
	"pragma_list": true, "collation_list": true, "compile_options": true,
	"table_list": true, "encoding": true, "data_version": true,
	"foreign_keys": true,
}

// objectPragmas describe one schema object named by their argument
// (PRAGMA table_info(t), SELECT * FROM pragma_table_info('t')): reading,
// whatever the argument.
var objectPragmas = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true,
	"index_list": true, "index_info": true, "index_xinfo": true,
	"foreign_key_list": true,
}

// deniedFunctions reach outside the database: load_extension loads code;
// readfile, writefile and edit (the sqlite3 shell's, should a build
// register them) touch files; fts3_tokenizer takes a C pointer.
var deniedFunctions = map[string]bool{
	"load_extension": true, "readfile": true, "writefile": true,
	"edit": true, "fts3_tokenizer": true,
}

// actionNames name the refused actions in errors.
var actionNames = map[sqlite.AuthorizerActionCode]string{
	sqlite.AuthAttach: "ATTACH", sqlite.AuthDetach: "DETACH",
	sqlite.AuthCreateIndex: "CREATE INDEX", sqlite.AuthCreateTable: "CREATE TABLE",
	sqlite.AuthCreateTempIndex: "CREATE TEMP INDEX", sqlite.AuthCreateTempTable: "CREATE TEMP TABLE",
	sqlite.AuthCreateTempTrigger: "CREATE TEMP TRIGGER", sqlite.AuthCreateTempView: "CREATE TEMP VIEW",
	sqlite.AuthCreateTrigger: "CREATE TRIGGER", sqlite.AuthCreateView: "CREATE VIEW",
	sqlite.AuthCreateVTable: "CREATE VIRTUAL TABLE", sqlite.AuthDropVTable: "DROP VIRTUAL TABLE",
	sqlite.AuthDropIndex: "DROP INDEX", sqlite.AuthDropTable: "DROP TABLE",
	sqlite.AuthDropTempIndex: "DROP TEMP INDEX", sqlite.AuthDropTempTable: "DROP TEMP TABLE",
	sqlite.AuthDropTempTrigger: "DROP TEMP TRIGGER", sqlite.AuthDropTempView: "DROP TEMP VIEW",
	sqlite.AuthDropTrigger: "DROP TRIGGER", sqlite.AuthDropView: "DROP VIEW",
	sqlite.AuthAlterTable: "ALTER TABLE", sqlite.AuthReindex: "REINDEX", sqlite.AuthAnalyze: "ANALYZE",
	sqlite.AuthInsert: "INSERT", sqlite.AuthUpdate: "UPDATE", sqlite.AuthDelete: "DELETE",
}

// safeDecision is the policy: "" allows the action, otherwise the name
// of what is refused.
func safeDecision(action sqlite.AuthorizerActionCode, arg1, arg2 string) string {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthRecursive,
		// BEGIN, COMMIT, SAVEPOINT: nothing can be written, so a
		// transaction only holds read locks (database/sql's BeginTx
		// needs them).
		sqlite.AuthTransaction, sqlite.AuthSavepoint:
		return ""
	case sqlite.AuthFunction:
		if deniedFunctions[strings.ToLower(arg2)] {
			return strings.ToLower(arg2)
		}
		return ""
	case sqlite.AuthPragma:
		name := strings.ToLower(arg1)
		if objectPragmas[name] || (arg2 == "" && readPragmas[name]) {
			return ""
		}
		return "PRAGMA " + name
	}
	if action == sqlite.AuthInsert || action == sqlite.AuthUpdate || action == sqlite.AuthDelete {
		switch strings.ToLower(arg1) {
		case "sqlite_master", "sqlite_temp_master", "sqlite_schema", "sqlite_temp_schema":
			// CREATE, DROP and ALTER write the schema table first.
			return "schema change"
		}
	}
	if n, ok := actionNames[action]; ok {
		return n
	}
	return "operation " + strconv.Itoa(int(action)) // an action code added later: refused
}

// guard is a connection's authorizer state. trusted lets tetsql's own
// setup SQL (ATTACH, CREATE VIRTUAL TABLE) through; only Go code sets
// it, never SQL. denied keeps the first refusal of the statement being
// compiled, to replace SQLite's "not authorized" with a message naming it.
type guard struct {
	mu      sync.Mutex
	trusted bool
	denied  string
}

func (g *guard) authorize(action sqlite.AuthorizerActionCode, arg1, arg2, db, _ string) sqlite.AuthorizerReturnCode {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.trusted {
		return sqlite.AuthorizerOK
	}
	what := safeDecision(action, arg1, arg2)
	if action == sqlite.AuthRead && db == "main" && strings.EqualFold(arg1, vtab.FilesName) {
		// tet_files reads the filesystem at a path the SQL names.
		what = vtab.FilesName
	}
	if what == "" {
		return sqlite.AuthorizerOK
	}
	if g.denied == "" {
		g.denied = what
	}
	return sqlite.AuthorizerDeny
}

// refuseFiles refuses tet_files outside tetsql's own setup SQL.
func (g *guard) refuseFiles() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.trusted {
		return nil
	}
	if g.denied == "" {
		g.denied = vtab.FilesName
	}
	return &NotAllowedError{What: vtab.FilesName}
}

func (g *guard) setTrusted(on bool) {
	g.mu.Lock()
	g.trusted = on
	g.mu.Unlock()
}

// take returns and forgets the recorded refusal.
func (g *guard) take() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	d := g.denied
	g.denied = ""
	return d
}

// installGuard switches safe mode on for the connection: the authorizer,
// then SQLite's own limits (safeLimits).
func (c *Conn) installGuard() error {
	reg, ok := c.inner.(sqlite.AuthorizerRegisterer)
	if !ok {
		return errors.New("tetsql: safe mode: the SQLite driver has no authorizer")
	}
	c.guard = &guard{}
	if err := reg.RegisterAuthorizer(c.guard.authorize); err != nil {
		return err
	}
	// The authorizer sees tet_files only when a column of it is named
	// (not in SELECT count(*) FROM tet_files('…')): the table itself asks.
	c.session.FilesRefused = c.guard.refuseFiles
	return c.setLimits(safeLimits(c.attached))
}

// trust runs fn (tetsql's own setup SQL) past the authorizer.
func (c *Conn) trust(fn func() error) error {
	if c.guard == nil {
		return fn()
	}
	c.guard.setTrusted(true)
	defer c.guard.setTrusted(false)
	return fn()
}

// allowAttach raises safe mode's limit on attached schemas by one, for
// the program's own Attach.
func (c *Conn) allowAttach() {
	if c.guard != nil {
		c.setLimits([]sqliteLimit{{sqlitevt.LimitAttached, int32(min(c.attached+1, 125))}})
	}
}

// notAllowed turns SQLite's "not authorized" into the refusal the
// authorizer recorded; q is the statement, to tell VACUUM (which SQLite
// authorizes as an ATTACH) from ATTACH.
func (c *Conn) notAllowed(q string) error {
	if c.guard == nil {
		return nil
	}
	what := c.guard.take()
	if what == "" {
		return nil
	}
	if what == "ATTACH" && strings.EqualFold(firstWord(q), "VACUUM") {
		what = "VACUUM"
	}
	return &NotAllowedError{What: what}
}

// precheck refuses, in safe mode, a statement whose kind can only
// change something (CREATE, DROP, INSERT, ATTACH, …) before SQLite sees
// it, so that the error names the statement even where SQLite would fail
// for another reason first (CREATE INDEX on a virtual table). The
// authorizer stays the guard: it also sees WITH … INSERT, PRAGMAs,
// functions and every statement of a multi-statement string.
func (c *Conn) precheck(q string) error {
	if c.guard == nil {
		return nil
	}
	if kind := writeKind(q); kind != "" {
		return &NotAllowedError{What: kind}
	}
	return nil
}

// writeKind names the statement q if its kind changes something:
// "CREATE TEMP VIEW", "DROP TABLE", "INSERT", …; "" otherwise.
func writeKind(q string) string {
	words := leadingWords(q, 5)
	if len(words) == 0 {
		return ""
	}
	switch words[0] {
	case "ATTACH", "DETACH", "VACUUM", "INSERT", "UPDATE", "DELETE", "REPLACE", "REINDEX", "ANALYZE":
		return words[0]
	case "ALTER":
		return "ALTER TABLE"
	case "DROP":
		if len(words) > 1 && schemaObjects[words[1]] {
			return "DROP " + words[1]
		}
		return "DROP"
	case "CREATE":
		kind := "CREATE"
		for _, w := range words[1:] {
			switch {
			case w == "TEMP" || w == "TEMPORARY":
				kind += " TEMP"
			case w == "VIRTUAL":
				kind += " VIRTUAL"
			case w == "UNIQUE":
			case schemaObjects[w]:
				return kind + " " + w
			default:
				return kind
			}
		}
		return kind
	}
	return ""
}

var schemaObjects = map[string]bool{"TABLE": true, "VIEW": true, "INDEX": true, "TRIGGER": true}

// leadingWords returns up to n leading keywords of q in upper case,
// past blanks and comments.
func leadingWords(q string, n int) []string {
	var out []string
	for len(out) < n {
		var w string
		w, q = nextWord(q)
		if w == "" {
			break
		}
		out = append(out, strings.ToUpper(w))
	}
	return out
}

// firstWord is the first keyword of a statement, past blanks and comments.
func firstWord(q string) string {
	w, _ := nextWord(q)
	return w
}

// nextWord returns the keyword at the start of q (past blanks and
// comments; "" if q starts otherwise) and the rest of q.
func nextWord(q string) (string, string) {
	for {
		q = strings.TrimLeft(q, " \t\r\n;")
		switch {
		case strings.HasPrefix(q, "--"):
			if i := strings.IndexByte(q, '\n'); i >= 0 {
				q = q[i+1:]
				continue
			}
			return "", ""
		case strings.HasPrefix(q, "/*"):
			if i := strings.Index(q, "*/"); i >= 0 {
				q = q[i+2:]
				continue
			}
			return "", ""
		}
		end := strings.IndexFunc(q, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		})
		if end < 0 {
			end = len(q)
		}
		return q[:end], q[end:]
	}
}

// sqliteLimit is one sqlite3_limit setting.
type sqliteLimit struct {
	id  sqlitevt.Limit
	val int32
}

// safeLimits are SQLite's own limits in safe mode (see docs/GO.md): they
// bound what one statement can make SQLite allocate or compile.
func safeLimits(attached int) []sqliteLimit {
	return []sqliteLimit{
		{sqlitevt.LimitLength, SafeMaxLength},               // a string or blob: zeroblob, printf, group_concat
		{sqlitevt.LimitSQLLength, 1_000_000},                // the statement's text
		{sqlitevt.LimitExprDepth, 500},                      // nesting of an expression
		{sqlitevt.LimitCompoundSelect, 100},                 // terms of a UNION chain
		{sqlitevt.LimitVariableNumber, 999},                 // ?NNN parameters
		{sqlitevt.LimitFunctionArg, 100},                    // arguments of one function
		{sqlitevt.LimitAttached, int32(min(attached, 125))}, // the files given: no more
	}
}

// SafeMaxLength is the largest string or blob (bytes) a statement may
// make in safe mode (SQLITE_LIMIT_LENGTH).
const SafeMaxLength = 32 << 20
