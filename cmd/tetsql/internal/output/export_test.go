package output

import "time"

// Hooks for the external tests.

func FormatFloat(f float64) string { return string(appendFloat(nil, f, 64)) }

func FormatFloat32(f float32) string { return string(appendFloat(nil, float64(f), 32)) }

func DisplayWidth(s string) int { return displayWidth([]byte(s)) }

func Truncate(s string, limit int) string {
	b, _ := appendTruncated(nil, []byte(s), limit)
	return string(b)
}

// ProgressInterval is the minimum time between two progress updates.
const ProgressInterval = progressInterval

// ErrNoHeader is returned by Row when Header has not been called.
var ErrNoHeader = errNoHeader

// WithWindow returns o with a window of n rows for box, table and
// markdown instead of the default.
func WithWindow(o Options, n int) Options {
	o.window = n
	return o
}

// Buffered returns the number of rows a box, table or markdown writer holds.
func Buffered(w Writer) int { return w.(*grid).nrows }

// SetClock replaces the progress clock and restarts it.
func SetClock(p *Progress, now func() time.Time) {
	p.now = now
	p.start = now()
}

// Tick makes the next Add draw the progress line.
func Tick(p *Progress) { p.due.Store(true) }

// StopTimer stops the real timer so that only Tick makes updates due.
func StopTimer(p *Progress) {
	p.timer.Stop()
	p.due.Store(false)
}

// Rows returns the number of rows counted so far.
func (p *Progress) Rows() int64 { return p.rows }

// Bytes returns the number of bytes counted so far.
func (p *Progress) Bytes() int64 { return p.bytes.Load() }
