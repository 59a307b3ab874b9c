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

// inValueBytes estimates the memory of one value of an IN list read
// whole: its interface and what it boxes.
func inValueBytes(v any) int64 {
	switch x := v.(type) {
	case string:
		return 32 + int64(len(x))
	case []byte:
		return 40 + int64(len(x))
	}
	return 24
}

// inListFits fails once the copy of an IN list (n values so far, bytes
// of memory) is above the memory limit of table t's session.
func inListFits(t any, n, bytes int64) error {
	s := sessionOf(t)
	name := ""
	if at, ok := t.(interface{ tableName() string }); ok {
		name = at.tableName()
	}
	b := s.engine().Budget(name)
	if err := b.Need("reading the IN list", n, "values so far", bytes/n+1); err != nil {
		s.setErr(err)
		return err
	}
	return nil
}

func (t *arrayTable) tableName() string { return t.qualified }
