package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tetsql/tetsql/cmd/tetgen/internal/gen"
)

// progressEvery is the minimum time between two progress lines.
const progressEvery = 200 * time.Millisecond

// progress prints a one-line status, rewritten in place with \r, at
// most every progressEvery. Quick runs print nothing.
type progress struct {
	w     io.Writer
	start time.Time
	last  time.Time
	width int // length of the line on screen, 0 if none
	now   func() time.Time
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, now: time.Now}
	p.start = p.now()
	p.last = p.start
	return p
}

func (p *progress) update(s gen.Progress) {
	t := p.now()
	if t.Sub(p.last) < progressEvery || s.Chunks == s.TotalChunks {
		return
	}
	p.last = t
	const mb = 1 << 20
	rate := float64(s.RawBytes) / mb / t.Sub(p.start).Seconds()
	line := fmt.Sprintf("tetgen: chunk %d/%d (%d%%), %.1f/%.1f MB, %.1f MB/s",
		s.Chunks, s.TotalChunks, 100*s.Chunks/s.TotalChunks, float64(s.RawBytes)/mb, float64(s.TotalRaw)/mb, rate)
	pad := max(0, p.width-len(line))
	fmt.Fprint(p.w, "\r"+line+strings.Repeat(" ", pad))
	p.width = len(line)
}

// clear erases the line, if one was printed.
func (p *progress) clear() {
	if p.width > 0 {
		fmt.Fprint(p.w, "\r"+strings.Repeat(" ", p.width)+"\r")
		p.width = 0
	}
}
