package repl

import (
	"context"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// The progress line of a running statement: on a terminal's stderr, a
// statement still running after liveDelay shows chunks read (of those
// planned), rows scanned, a rate and the time so far, redrawn with \r at
// most every liveEvery and cleared when the statement ends, fails or is
// interrupted, and as soon as its first result byte goes to a terminal
// stdout (rows and the line would tangle). Exports to a file or in a
// binary format draw their own line (output.Progress) instead.

// Defaults of the progress line.
const (
	liveDelay = time.Second            // nothing is drawn before
	liveEvery = 250 * time.Millisecond // at most one redraw per
)

// liveClear clears the line: back to its start, erase to the end (also
// a "^C" the terminal echoed after it).
const liveClear = "\r\033[K"

// liveState is the shell's state for the progress line and the _agg
// hint (agghint.go).
type liveState struct {
	// delay and every override liveDelay and liveEvery when not 0; a
	// negative delay draws the line at once, before the statement runs
	// (tests). now replaces time.Now (tests).
	delay, every time.Duration
	now          func() time.Time

	act     *tetsql.Activity // the connection's counters, taken once
	actDone bool

	scripts int // RunScript nesting: no line and no hint inside a script

	// hintChunks and hintTime override the _agg hint's thresholds when
	// not 0; hinted holds the companions already named.
	hintChunks int64
	hintTime   time.Duration
	hinted     map[string]bool
}

// startLive starts the progress line of the statement about to run, or
// returns nil when none is shown: stderr is not a terminal, a script is
// running, standard output is a pipe, or the results go to a file or a
// binary format (whose export line owns stderr). While it runs, the shell's Stdout and Stderr are
// wrapped so that a result byte stops it and a message clears it first;
// stopLive puts them back.
func (s *Shell) startLive() *liveLine {
	if !s.opt.StderrTerminal || s.live.scripts > 0 || s.once != nil || s.out != nil || s.currentMode().Binary() {
		return nil
	}
	// Standard output piped to a program (| less, | head) may end on the
	// same terminal, where the line would be drawn over its rows or its
	// screen: only a terminal (whose first result byte stops the line) or
	// a regular file gets one.
	if !s.opt.StdoutTerminal && !s.opt.StdoutRegular {
		return nil
	}
	if !s.live.actDone {
		s.live.actDone = true
		s.live.act, _ = tetsql.Progress(context.Background(), s.conn)
	}
	act := s.live.act
	if act == nil {
		return nil
	}
	now := s.live.now
	if now == nil {
		now = time.Now
	}
	base := act.Snapshot()
	l := &liveLine{out: s.opt.Stderr, width: s.termWidth(), now: now, start: now(),
		snap: func() tetsql.LiveCounts { return act.Snapshot().Sub(base) },
		quit: make(chan struct{}), done: make(chan struct{}), stdout: s.opt.Stdout, stderr: s.opt.Stderr}
	if s.opt.StdoutTerminal {
		s.opt.Stdout = &pauseWriter{w: s.opt.Stdout, l: l}
	}
	s.opt.Stderr = &clearWriter{w: s.opt.Stderr, l: l}
	delay, every := cmpOr(s.live.delay, liveDelay), cmpOr(s.live.every, liveEvery)
	if delay < 0 {
		l.tick()
		delay = every
	}
	go l.run(delay, every)
	return l
}

// stopLive stops l (nil: none), clears its line and restores the
// shell's Stdout and Stderr.
func (s *Shell) stopLive(l *liveLine) {
	if l == nil {
		return
	}
	l.stop()
	s.opt.Stdout, s.opt.Stderr = l.stdout, l.stderr
}

func cmpOr(d, def time.Duration) time.Duration {
	if d != 0 {
		return d
	}
	return def
}

// liveLine draws one statement's progress line. Draws happen on its
// goroutine; writes of the shell to the wrapped Stdout and Stderr take
// the same lock, so that nothing interleaves with a draw.
type liveLine struct {
	out   io.Writer // the terminal's stderr
	width int       // terminal columns, 0 = unknown
	now   func() time.Time
	start time.Time
	snap  func() tetsql.LiveCounts // this statement's counters so far

	mu     sync.Mutex
	shown  bool        // a line is on screen
	off    atomic.Bool // no more drawing: a result reached stdout, or stopped
	buf    []byte
	quit   chan struct{}
	done   chan struct{}
	stdout io.Writer // the shell's writers before wrapping
	stderr io.Writer
}

// run draws after delay and then every interval until stop.
func (l *liveLine) run(delay, every time.Duration) {
	defer close(l.done)
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-t.C:
	case <-l.quit:
		return
	}
	tk := time.NewTicker(every)
	defer tk.Stop()
	for {
		l.tick()
		select {
		case <-tk.C:
		case <-l.quit:
			return
		}
	}
}

// tick redraws the line unless drawing is off.
func (l *liveLine) tick() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.off.Load() {
		return
	}
	b := append(l.buf[:0], '\r')
	b = appendLive(b, l.snap(), l.now().Sub(l.start))
	if l.width > 1 && len(b)-1 > l.width-1 {
		b = b[:l.width] // one column spare: never wrap
	}
	b = append(b, "\033[K"...)
	l.buf = b
	l.out.Write(b) //nolint:errcheck // best effort on stderr
	l.shown = true
}

// clearLocked erases the line if one is shown; l.mu is held.
func (l *liveLine) clearLocked() {
	if l.shown {
		io.WriteString(l.out, liveClear) //nolint:errcheck // best effort on stderr
		l.shown = false
	}
}

// pause clears the line and stops drawing for the rest of the statement.
func (l *liveLine) pause() {
	if l.off.Load() {
		return
	}
	l.mu.Lock()
	l.off.Store(true)
	l.clearLocked()
	l.mu.Unlock()
}

// stop ends the goroutine and clears the line.
func (l *liveLine) stop() {
	close(l.quit)
	<-l.done
	l.pause()
}

// appendLive appends "[3/12 files  ]1,234/4,000 chunks  12,345,678 rows
// 3,456,789 rows/s  3.6 s" (chunks/s while no row was counted).
func appendLive(b []byte, c tetsql.LiveCounts, elapsed time.Duration) []byte {
	if c.FilesPlanned > 0 {
		b = output.AppendGrouped(b, c.FilesOpened)
		b = append(b, '/')
		b = output.AppendGrouped(b, c.FilesPlanned)
		b = append(b, " files  "...)
	}
	b = output.AppendGrouped(b, c.Chunks)
	if c.ChunksPlanned > 0 {
		b = append(b, '/')
		b = output.AppendGrouped(b, c.ChunksPlanned)
	}
	b = append(b, " chunks  "...)
	b = output.AppendGrouped(b, c.Rows)
	b = append(b, " rows"...)
	if secs := elapsed.Seconds(); secs > 0 {
		if c.Rows > 0 {
			b = append(b, "  "...)
			b = output.AppendGrouped(b, int64(float64(c.Rows)/secs))
			b = append(b, " rows/s"...)
		} else if c.Chunks > 0 {
			b = append(b, "  "...)
			b = strconv.AppendFloat(b, float64(c.Chunks)/secs, 'f', 1, 64)
			b = append(b, " chunks/s"...)
		}
	}
	b = append(b, "  "...)
	b = strconv.AppendFloat(b, elapsed.Seconds(), 'f', 1, 64)
	return append(b, " s"...)
}

// pauseWriter is the shell's Stdout on a terminal while a progress line
// runs: the first result byte clears the line and stops it.
type pauseWriter struct {
	w io.Writer
	l *liveLine
}

func (p *pauseWriter) Write(b []byte) (int, error) {
	p.l.pause()
	return p.w.Write(b)
}

// clearWriter is the shell's Stderr while a progress line runs: a
// message clears the line first (the next tick draws it again below).
type clearWriter struct {
	w io.Writer
	l *liveLine
}

func (c *clearWriter) Write(b []byte) (int, error) {
	c.l.mu.Lock()
	defer c.l.mu.Unlock()
	c.l.clearLocked()
	return c.w.Write(b)
}
