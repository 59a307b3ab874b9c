package repl

import (
	"fmt"
	"strings"
	"time"
)

// footer writes the line that follows a result shown on standard output:
// with Options.Footer (a terminal) always, "3 rows · 0.004 s"; without it
// only when a grid held rows or columns back. n is the result's row
// count, lim the maxrows limiter (nil: none), hidden the columns a grid
// left out of ncol to fit the terminal.
func (s *Shell) footer(n int64, lim *limitWriter, hidden, ncol int) {
	held := lim != nil && lim.heldBack() > 0
	if !s.opt.Footer && !held && hidden == 0 {
		return
	}
	var b strings.Builder
	b.WriteString(plural(int(n), "row"))
	if held {
		fmt.Fprintf(&b, ", %d shown (.maxrows 0 shows all)", lim.limit)
	}
	if hidden > 0 {
		fmt.Fprintf(&b, " · %s, %d shown (.mode line shows all)", plural(ncol, "column"), ncol-hidden)
	}
	if s.opt.Footer {
		b.WriteString(" · ")
		b.WriteString(seconds(s.now().Sub(s.started)))
	}
	b.WriteByte('\n')
	s.opt.Stdout.Write([]byte(b.String())) //nolint:errcheck // as the rows before it
}

// seconds is a duration as the footer shows it: "0.004 s", "12.3 s",
// "2 min 5 s".
func seconds(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return fmt.Sprintf("%.3f s", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%d min %d s", int(d/time.Minute), int(d%time.Minute/time.Second))
}

// now is the shell's clock.
func (s *Shell) now() time.Time {
	if s.opt.Now != nil {
		return s.opt.Now()
	}
	return time.Now()
}

// termWidth is the terminal's width now (0 = unknown).
func (s *Shell) termWidth() int {
	if s.opt.WidthNow != nil {
		return s.opt.WidthNow()
	}
	return s.opt.Width
}
