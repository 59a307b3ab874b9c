package tetsql

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/tetsql/tetsql/vtab"
)

// A pooled connection passes from one user to the next. Whatever a user
// changed on it (a temp view named like a table, a DETACH of a file's
// schema, a schema of its own, a PRAGMA that changes answers or row
// order, an open transaction) must not reach the next user. Rather than
// undo each change, ResetSession compares the connection with a snapshot
// taken when it was set up and reports driver.ErrBadConn when anything
// differs: database/sql then closes it and the next user gets a fresh
// connection, set up from scratch. A connection left as it was costs one
// query per reuse (see BenchmarkResetSession).

// watchedPragmas are the per-connection PRAGMAs a user may set that
// change answers, names, order or behaviour of later statements; each is
// read with its table-valued form pragma_NAME. case_sensitive_like has
// no reader: the snapshot evaluates 'a' LIKE 'A' instead. The heap limits
// are process-wide and cannot be isolated per connection (safe mode
// refuses writing PRAGMAs).
var watchedPragmas = []string{
	"reverse_unordered_selects", "short_column_names", "full_column_names",
	"count_changes", "empty_result_callbacks", "recursive_triggers",
	"foreign_keys", "defer_foreign_keys", "ignore_check_constraints",
	"query_only", "trusted_schema", "legacy_alter_table", "writable_schema",
	"automatic_index", "cell_size_check", "cache_size", "cache_spill",
	"temp_store", "busy_timeout", "threads", "analysis_limit",
	"secure_delete", "read_uncommitted", "encoding", "journal_mode",
	"synchronous", "locking_mode", "max_page_count",
}

// snapshot is a connection's state as set up.
type snapshot struct {
	query  string         // one SELECT reading everything compared
	want   []driver.Value // its row
	tables uint64         // the session's TableEvents
}

// snapshotQuery reads the attached schemas and their files, how many
// objects each listed schema holds (main holds none after setup, a file's
// schema its tables), the LIKE probe and the watched PRAGMAs.
func snapshotQuery(schemas []string) string {
	var b strings.Builder
	b.WriteString("SELECT (SELECT group_concat(name || char(31) || file, char(30)) FROM pragma_database_list), 'a' LIKE 'A'")
	for _, s := range schemas {
		fmt.Fprintf(&b, ", (SELECT count(*) FROM %s.sqlite_master)", quoteIdent(s))
	}
	for _, p := range watchedPragmas {
		fmt.Fprintf(&b, ", (SELECT * FROM pragma_%s)", p)
	}
	return b.String()
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// queryRow runs q on the underlying connection and returns its one row.
func (c *Conn) queryRow(ctx context.Context, q string) ([]driver.Value, error) {
	r, err := c.inner.(driver.QueryerContext).QueryContext(ctx, q, nil)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	row := make([]driver.Value, len(r.Columns()))
	if err := r.Next(row); err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("tetsql: %s: no row", q)
		}
		return nil, err
	}
	for i, v := range row {
		if b, ok := v.([]byte); ok {
			row[i] = string(b) // the driver may reuse the buffer
		}
	}
	return row, nil
}

// takeSnapshot records the connection's state as it is now: after setup,
// and after each Attach (the shell's .open adds a schema legitimately).
func (c *Conn) takeSnapshot(ctx context.Context) error {
	r, err := c.inner.(driver.QueryerContext).QueryContext(ctx, "SELECT name FROM pragma_database_list", nil)
	if err != nil {
		return fmt.Errorf("tetsql: snapshot: %w", err)
	}
	var schemas []string
	row := make([]driver.Value, 1)
	for r.Next(row) == nil {
		s, _ := row[0].(string)
		schemas = append(schemas, s)
	}
	r.Close()
	// The list shows temp only once something used it (reading
	// temp.sqlite_master would open it), so a temp object shows as a
	// changed list; the schemas listed are counted.
	q := snapshotQuery(schemas)
	want, err := c.queryRow(ctx, q)
	if err != nil {
		return fmt.Errorf("tetsql: snapshot: %w", err)
	}
	c.snap = &snapshot{query: q, want: want, tables: c.session.TableEvents()}
	return nil
}

// changed reports whether the connection differs from its snapshot; an
// error reading it (a schema was detached) counts as a change.
func (c *Conn) changed(ctx context.Context) bool {
	if c.snap == nil {
		return false
	}
	if c.session.TableEvents() != c.snap.tables {
		return true
	}
	if tx, err := vtab.InTransaction(c.inner); err != nil || tx {
		return true
	}
	got, err := c.queryRow(ctx, c.snap.query)
	return err != nil || !reflect.DeepEqual(got, c.snap.want)
}
