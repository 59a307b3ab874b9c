package repl

import (
	"bytes"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/tetsql/tetsql"
)

// fakeLine is a liveLine over a buffer whose counters and clock the
// test sets.
func fakeLine(width int) (*liveLine, *bytes.Buffer, *tetsql.LiveCounts, *time.Time) {
	var out bytes.Buffer
	counts := new(tetsql.LiveCounts)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := new(time.Time)
	*now = t0
	l := &liveLine{out: &out, width: width, now: func() time.Time { return *now }, start: t0,
		snap: func() tetsql.LiveCounts { return *counts }, quit: make(chan struct{}), done: make(chan struct{})}
	return l, &out, counts, now
}

// TestLiveLine_drawUpdateClear: each draw rewrites the line from its
// start and erases what a longer one left; the end clears it; the exact
// bytes.
func TestLiveLine_drawUpdateClear(t *testing.T) {
	l, out, c, now := fakeLine(0)
	*now = now.Add(1500 * time.Millisecond)
	*c = tetsql.LiveCounts{ChunksPlanned: 4000, Chunks: 12, Rows: 3_000_000}
	l.tick()
	*now = now.Add(time.Second)
	*c = tetsql.LiveCounts{ChunksPlanned: 4000, Chunks: 1234, Rows: 12_345_678}
	l.tick()
	close(l.done) // no goroutine runs
	l.stop()
	l.tick() // stopped: draws nothing
	want := "\r12/4,000 chunks  3,000,000 rows  2,000,000 rows/s  1.5 s\033[K" +
		"\r1,234/4,000 chunks  12,345,678 rows  4,938,271 rows/s  2.5 s\033[K" +
		"\r\033[K"
	if got := out.String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestLiveLine_forms: files of many-file scans, chunks/s before any row
// (a fold), no planned count before a scan starts, a narrow terminal.
func TestLiveLine_forms(t *testing.T) {
	for _, tc := range []struct {
		name  string
		c     tetsql.LiveCounts
		width int
		want  string
	}{
		{"files", tetsql.LiveCounts{FilesPlanned: 12, FilesOpened: 3, ChunksPlanned: 30, Chunks: 9, Rows: 900}, 0,
			"\r3/12 files  9/30 chunks  900 rows  450 rows/s  2.0 s\033[K"},
		{"no rows yet", tetsql.LiveCounts{ChunksPlanned: 100, Chunks: 5}, 0,
			"\r5/100 chunks  0 rows  2.5 chunks/s  2.0 s\033[K"},
		{"nothing planned", tetsql.LiveCounts{}, 0, "\r0 chunks  0 rows  2.0 s\033[K"},
		{"narrow", tetsql.LiveCounts{ChunksPlanned: 100, Chunks: 5}, 20, "\r5/100 chunks  0 row\033[K"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, out, c, now := fakeLine(tc.width)
			*now = now.Add(2 * time.Second)
			*c = tc.c
			l.tick()
			if got := out.String(); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestLiveLine_writers: a message on stderr clears the line first (the
// next tick draws it again); the first byte to a terminal stdout clears
// it for good.
func TestLiveLine_writers(t *testing.T) {
	l, out, c, _ := fakeLine(0)
	*c = tetsql.LiveCounts{Chunks: 1}
	var stdout bytes.Buffer
	errw := &clearWriter{w: out, l: l}
	outw := &pauseWriter{w: &stdout, l: l}
	l.tick()
	io.WriteString(errw, "warning\n")
	l.tick()
	io.WriteString(outw, "row 1\n")
	l.tick()
	io.WriteString(outw, "row 2\n")
	io.WriteString(errw, "done\n")
	close(l.done)
	l.stop()
	line := "\r1 chunks  0 rows  0.0 s\033[K"
	want := line + "\r\033[K" + "warning\n" + line + "\r\033[K" + "done\n"
	if got := out.String(); got != want {
		t.Errorf("stderr got  %q\nwant %q", got, want)
	}
	if got := stdout.String(); got != "row 1\nrow 2\n" {
		t.Errorf("stdout %q", got)
	}
}

// TestLiveLine_goroutine: run draws after the delay and stops when told
// (under -race: the draws and the counters' reads do not race with the
// shell's writes).
func TestLiveLine_goroutine(t *testing.T) {
	l, out, c, _ := fakeLine(0)
	*c = tetsql.LiveCounts{Chunks: 2}
	sw := &syncWriter{w: out}
	l.out = sw
	errw := &clearWriter{w: sw, l: l}
	go l.run(time.Millisecond, time.Millisecond)
	deadline := time.Now().Add(10 * time.Second)
	for !bytes.Contains(sw.bytes(), []byte("2 chunks")) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	io.WriteString(errw, "msg\n")
	for !bytes.Contains(sw.bytes(), []byte("msg\n\r2 chunks")) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond) // drawn again below the message
	}
	l.stop()
	got := sw.bytes()
	if !bytes.HasPrefix(got, []byte("\r2 chunks  0 rows")) || !bytes.HasSuffix(got, []byte("\033[K\r\033[K")) || !bytes.Contains(got, []byte("\033[K\r\033[Kmsg\n\r2 chunks")) {
		t.Errorf("got %q: want draws, the message, and the line cleared at the end", got)
	}
}

// syncWriter is a writer two goroutines may share.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *syncWriter) bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.w.Bytes()...)
}
