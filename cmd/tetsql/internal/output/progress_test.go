package output_test

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

func TestProgress(t *testing.T) {
	t.Parallel()
	var stderr, dst bytes.Buffer
	p := output.NewProgress(&stderr)
	output.StopTimer(p)
	now := time.Unix(1000, 0)
	output.SetClock(p, func() time.Time { return now })

	w, _ := output.New(output.CSV, p.CountBytes(&dst), output.Options{})
	w = p.Wrap(w)
	w.Header(streamCols)
	for i := range 1000 {
		w.Row(streamRows[i%len(streamRows)])
	}
	if stderr.Len() != 0 {
		t.Fatalf("progress drawn before an update was due: %q", stderr.String())
	}
	w.Close()
	now = now.Add(2 * time.Second)
	output.Tick(p)
	p.Add(1000)
	line := stderr.String()
	t.Logf("%q", line)
	want := "\r2,000 rows  " // bytes and rates follow
	if !strings.HasPrefix(line, want) || !strings.Contains(line, "1,000 rows/s") ||
		!strings.HasSuffix(line, "KiB/s\033[K") || strings.Contains(line, "\n") {
		t.Errorf("progress line %q, want prefix %q and a rate", line, want)
	}
	if p.Rows() != 2000 || p.Bytes() != int64(dst.Len()) {
		t.Errorf("Rows, Bytes = %d, %d; want 2000, %d", p.Rows(), p.Bytes(), dst.Len())
	}
	p.Add(1) // no update due
	if stderr.String() != line {
		t.Error("progress redrawn without an update due")
	}
	stderr.Reset()
	p.Done()
	if got := stderr.String(); got != "\r\033[K" {
		t.Errorf("Done wrote %q", got)
	}
}

func TestProgress_quiet(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	p := output.NewProgress(&stderr)
	io.WriteString(p.CountBytes(io.Discard), "hello")
	p.Add(5)
	p.Done()
	if stderr.Len() != 0 {
		t.Errorf("short export printed %q", stderr.String())
	}
	if p.Bytes() != 5 {
		t.Errorf("Bytes = %d", p.Bytes())
	}
}

// TestProgress_timer checks that the real timer marks updates as due.
func TestProgress_timer(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	p := output.NewProgress(&stderr)
	defer p.Done()
	deadline := time.Now().Add(5 * time.Second)
	for stderr.Len() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		p.Add(1)
	}
	if !strings.Contains(stderr.String(), " rows") {
		t.Errorf("no progress line after %v: %q", output.ProgressInterval, stderr.String())
	}
}

// TestProgress_width: on a narrow terminal the line is cut to one
// column less than the width, so that a redraw never wraps.
func TestProgress_width(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	p := output.NewProgress(&stderr)
	output.StopTimer(p)
	now := time.Unix(1000, 0)
	output.SetClock(p, func() time.Time { return now })
	p.SetWidth(20)
	now = now.Add(time.Second)
	output.Tick(p)
	p.Add(123456)
	if got, want := stderr.String(), "\r123,456 rows  0 B  \033[K"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
}
