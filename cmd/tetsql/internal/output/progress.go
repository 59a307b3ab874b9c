package output

import (
	"fmt"
	"io"
	"strconv"
	"sync/atomic"
	"time"
)

// progressInterval is the minimum time between two progress updates.
const progressInterval = 250 * time.Millisecond

// Progress reports an export's progress (rows, bytes written, rates) on
// one line of a terminal, rewriting it with \r at most once per
// progressInterval. The caller decides whether stderr is a terminal and
// only creates a Progress if it is. Updates happen on the goroutine that
// calls Add, so a Progress must not be used concurrently; a timer only
// marks that an update is due. Call Done when the export ends.
type Progress struct {
	out   io.Writer
	now   func() time.Time
	start time.Time
	timer *time.Timer
	due   atomic.Bool
	rows  int64
	bytes atomic.Int64
	shown bool   // a line is on screen
	width int    // terminal columns (0 = unknown): the line is cut to fit
	line  []byte // scratch
}

// NewProgress returns a Progress that writes to out (typically os.Stderr).
// The first update appears after progressInterval, so short exports print
// nothing.
func NewProgress(out io.Writer) *Progress {
	p := &Progress{out: out, now: time.Now}
	p.start = p.now()
	p.timer = time.AfterFunc(progressInterval, func() { p.due.Store(true) })
	return p
}

// SetWidth cuts the line to fit a terminal of width columns (0 =
// unknown: not cut), so that a redraw never wraps onto a second line,
// which \r would not return to.
func (p *Progress) SetWidth(width int) { p.width = width }

// CountBytes returns a writer that forwards to w and adds the bytes it
// writes to the progress report. Put it under the formatter, around the
// output file.
func (p *Progress) CountBytes(w io.Writer) io.Writer {
	return &countingWriter{w: w, n: &p.bytes}
}

// Wrap returns a Writer that forwards to w and counts each row with Add.
func (p *Progress) Wrap(w Writer) Writer { return &progressWriter{Writer: w, p: p} }

// Add counts n more rows and redraws the line if an update is due.
func (p *Progress) Add(n int64) {
	p.rows += n
	if p.due.Load() {
		p.due.Store(false)
		p.report()
		p.timer.Reset(progressInterval)
	}
}

// lineClear returns to the line's start and erases to its end.
const lineClear = "\r\033[K"

// Done stops the updates and clears the line if one was drawn.
func (p *Progress) Done() {
	p.timer.Stop()
	if p.shown {
		io.WriteString(p.out, lineClear) //nolint:errcheck // best effort on stderr
		p.shown = false
	}
}

// report draws "\r1,234,567 rows  45.6 MiB  410,000 rows/s  16.8 MiB/s",
// cut to the terminal's width, then erases what a longer previous line
// left after it.
func (p *Progress) report() {
	secs := p.now().Sub(p.start).Seconds()
	bytes := p.bytes.Load()
	b := append(p.line[:0], '\r')
	n := len(b)
	b = AppendGrouped(b, p.rows)
	b = append(b, " rows  "...)
	b = appendBytes(b, float64(bytes))
	if secs > 0 {
		b = append(b, "  "...)
		b = AppendGrouped(b, int64(float64(p.rows)/secs))
		b = append(b, " rows/s  "...)
		b = appendBytes(b, float64(bytes)/secs)
		b = append(b, "/s"...)
	}
	if p.width > 1 && len(b)-n > p.width-1 { // ASCII only; the last column stays free
		b = b[:n+p.width-1]
	}
	b = append(b, "\033[K"...)
	p.shown = true
	p.line = b
	p.out.Write(b) //nolint:errcheck // best effort on stderr
}

// AppendGrouped appends n with thousands separators: 1,234,567.
func AppendGrouped(b []byte, n int64) []byte {
	var tmp [24]byte
	d := strconv.AppendInt(tmp[:0], n, 10)
	for i, c := range d {
		if i > 0 && c != '-' && (len(d)-i)%3 == 0 && d[i-1] != '-' {
			b = append(b, ',')
		}
		b = append(b, c)
	}
	return b
}

// appendBytes appends a byte count in binary units: 512 B, 1.5 KiB, 3.2 GiB.
func appendBytes(b []byte, n float64) []byte {
	const units = "KMGTPE"
	if n < 1024 {
		return fmt.Appendf(b, "%d B", int64(n))
	}
	i := -1
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	return fmt.Appendf(b, "%.1f %ciB", n, units[i])
}

// countingWriter forwards writes and counts the bytes written.
type countingWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n.Add(int64(n))
	return n, err
}

// progressWriter counts the rows passing through a Writer.
type progressWriter struct {
	Writer
	p *Progress
}

func (w *progressWriter) Row(vals []any) error {
	if err := w.Writer.Row(vals); err != nil {
		return err
	}
	w.p.Add(1)
	return nil
}
