package vtab

import "github.com/tetsql/tetsql/internal/scan"

// DefaultMemLimit is the memory limit of a session that sets none (see
// scan.DefaultMemLimit).
const DefaultMemLimit = scan.DefaultMemLimit

// ErrMemLimit is matched (errors.Is) by every refusal of a query whose
// planned buffers exceed the session's memory limit.
var ErrMemLimit = scan.ErrMemLimit

// MemLimitError is the refusal of a query whose buffers would exceed the
// memory limit (see scan.MemLimitError).
type MemLimitError = scan.MemLimitError

// InListFits implements sqlitevt.InLister (with aggTable's
// InListColumn): it fails once the copy of an IN list (n values so far,
// bytes of memory) is above the memory limit of the table's session.
func (t *arrayTable) InListFits(n, bytes int64) error {
	b := t.session.engine().Budget(t.qualified)
	if err := b.Need("reading the IN list", n, "values so far", bytes/n+1); err != nil {
		t.session.setErr(err)
		return err
	}
	return nil
}
