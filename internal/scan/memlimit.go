package scan

import (
	"errors"
	"fmt"
	"math/bits"
)

// DefaultMemLimit is the memory limit of a session that sets none: the
// most a query may ask of tetsql's own buffers (an aggregate's groups,
// its chunk list, a metadata table's rows). Chunk decoding is bounded
// separately, by the table's max chunk size.
const DefaultMemLimit int64 = 1 << 30

// ErrMemLimit is matched (errors.Is) by every refusal of a query whose
// planned buffers exceed the session's memory limit.
var ErrMemLimit = errors.New("memory limit exceeded")

// MemLimitError is the refusal of a query whose buffers, sized from its
// plan before any is allocated, would exceed the memory limit.
type MemLimitError struct {
	Table string // schema-qualified table
	What  string // what needs the memory, e.g. "grouping"
	Bytes int64  // bytes needed (math.MaxInt64 if that overflows)
	Items int64  // how many of Unit
	Unit  string // e.g. "groups"
	Limit int64
	Held  int64 // bytes other open tables of the connection hold
}

// Error says what needed how much, and the limit.
func (e *MemLimitError) Error() string {
	held := ""
	if e.Held > 0 {
		held = fmt.Sprintf("; other tables of this connection's statements hold %s", SizeText(e.Held))
	}
	return fmt.Sprintf("tet: %s: %s needs %s for %d %s, above the memory limit of %s (DSN option mem_limit, shell --mem-limit%s)",
		e.Table, e.What, SizeText(e.Bytes), e.Items, e.Unit, SizeText(e.Limit), held)
}

// SizeText renders a byte count with a binary unit: 512 B, 1.5 KiB, …, 8.0 EiB.
func SizeText(n int64) string {
	if n < 1<<10 {
		return fmt.Sprintf("%d B", n)
	}
	f, units := float64(n)/(1<<10), "KMGTPE"
	i := 0
	for f >= 1<<10 && i < len(units)-1 {
		f /= 1 << 10
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, units[i])
}

// Is makes errors.Is(err, ErrMemLimit) hold.
func (e *MemLimitError) Is(target error) bool { return target == ErrMemLimit }

// memLimit returns the session's limit, or DefaultMemLimit.
func (s *Session) memLimit() int64 {
	if s == nil || s.MemLimit <= 0 {
		return DefaultMemLimit
	}
	return s.MemLimit
}

// Budget adds up the buffers one call plans to allocate, so that the
// call fails before the first large allocation rather than after it.
// It starts from what the session's open cursors already hold (see
// Hold), so that the tables of one statement (a join of three _agg
// tables) share one limit.
type Budget struct {
	sess   *Session
	table  string
	limit  int64
	used   int64 // bytes held by others plus this budget's own
	others int64 // bytes held by other cursors when the budget began
}

// Budget starts a budget for a call of table.
func (s *Session) Budget(table string) Budget {
	b := Budget{sess: s, table: table, limit: s.memLimit()}
	if s != nil {
		b.others = s.held.Load()
		b.used = b.others
	}
	return b
}

// Hold keeps this budget's own bytes counted against the session's limit
// until Release is called with the returned amount (a cursor's buffers
// live from its Filter until its next Filter or Close).
func (b *Budget) Hold() int64 {
	own := b.used - b.others
	if b.sess != nil && own > 0 {
		b.sess.held.Add(own)
	}
	return own
}

// Release gives back what Hold kept, and zeroes *n.
func (s *Session) Release(n *int64) {
	if s != nil && *n != 0 {
		s.held.Add(-*n)
	}
	*n = 0
}

// Held is the bytes the session's open cursors hold against its limit.
func (s *Session) Held() int64 {
	if s == nil {
		return 0
	}
	return s.held.Load()
}

// MulBytes returns n×each, saturated at MaxInt64 (n, each ≥ 0).
func MulBytes(n, each int64) int64 {
	hi, lo := bits.Mul64(uint64(n), uint64(each))
	if hi != 0 || lo > 1<<63-1 {
		return 1<<63 - 1
	}
	return int64(lo)
}

// Need reserves n items of each bytes, or fails without reserving.
func (b *Budget) Need(what string, n int64, unit string, each int64) error {
	bytes := MulBytes(n, each)
	if bytes > b.limit-b.used {
		return &MemLimitError{Table: b.table, What: what, Bytes: bytes, Items: n, Unit: unit, Limit: b.limit, Held: b.others}
	}
	b.used += bytes
	return nil
}

// Left is what is still free.
func (b *Budget) Left() int64 { return b.limit - b.used }
