package repl

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// runSQL runs one statement, streams its rows to the current output and
// then prints the timer and scan statistics when they are on.
func (s *Shell) runSQL(ctx context.Context, q string) error {
	start := s.now()
	s.started = start
	live := s.startLive()
	err := s.guard(ctx, func(ctx context.Context) error { return s.query(ctx, q) })
	s.stopLive(live) // cleared on success, error and Ctrl-C
	elapsed := s.now().Sub(start)
	scans, _ := tetsql.Scans(context.Background(), s.conn) // drained even when not shown
	if s.stats {
		for _, st := range scans {
			fmt.Fprintln(s.opt.Stderr, st.String())
		}
	}
	if s.timer {
		fmt.Fprintf(s.opt.Stderr, "Run Time: real %.3f s\n", elapsed.Seconds())
	}
	if err == nil {
		s.aggHint(q, scans)
	}
	return s.explain(ctx, q, err)
}

// guard runs fn under a context that SIGINT (Options.Interrupts)
// cancels, and turns the resulting error into ErrInterrupted. Nested
// calls share the outer guard.
func (s *Shell) guard(ctx context.Context, fn func(context.Context) error) error {
	if s.opt.Interrupts == nil || s.guarded {
		return fn(ctx)
	}
	for drained := false; !drained; { // forget Ctrl-C pressed while idle
		select {
		case <-s.opt.Interrupts:
		default:
			drained = true
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	go func() {
		select {
		case <-s.opt.Interrupts:
			cancel()
		case <-done:
		}
	}()
	s.guarded = true
	err := fn(ctx)
	s.guarded = false
	close(done)
	if err != nil && ctx.Err() != nil {
		return ErrInterrupted
	}
	return err
}

// query runs q with its results going to the current output and
// settles that output's file: a .once file is replaced or discarded
// now, a .output file cut back to before q if q failed.
func (s *Shell) query(ctx context.Context, q string) error {
	k := s.once
	s.once = nil
	if k == nil {
		k = s.out
	}
	var off int64
	if k != nil {
		off = k.file.Offset()
	}
	results, err := s.statement(ctx, q, k)
	if k == nil {
		return err
	}
	aerr := k.after(off, results || k.kind == sinkOnce, err)
	if k.kind == sinkOnce {
		aerr = s.closeSink(k, false)
	}
	switch {
	case err == nil:
		return aerr
	case aerr == nil:
		return err
	}
	return errors.Join(err, aerr)
}

// statement runs q and writes its result set, if it has columns, to k
// (nil = standard output); results tells whether it had one.
func (s *Shell) statement(ctx context.Context, q string, k *sink) (results bool, err error) {
	args, err := s.bindArgs(ctx, q) // .parameter values; none without parameters
	if err != nil {
		return false, err
	}
	if m := s.modeFor(k); m.Binary() && (k == nil || k.held.name == "") {
		// An export: straight from the cells scan where the query allows.
		// A statement it cannot prepare, or one without results, runs
		// below as any other (and reports its error as any other).
		if e, err := tetsql.NewExport(ctx, s.conn, q, args...); err == nil && len(e.Columns()) > 0 {
			if err := s.checkExtension(k); err != nil {
				return true, err
			}
			return true, s.exportBinary(ctx, e, k, m)
		}
	}
	rows, err := s.conn.QueryContext(ctx, q, args...)
	if err != nil {
		return false, interrupted(ctx, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return false, err
	}
	if len(cols) == 0 { // DDL, DML, ATTACH, …: run to completion
		for rows.Next() {
		}
		return false, interrupted(ctx, rows.Err())
	}
	if err := s.checkExtension(k); err != nil {
		return true, err
	}
	if m := s.modeFor(k); m.Binary() || (k != nil && k.held.name != "") {
		return true, s.writeBinary(ctx, rows, k, m)
	}
	w, prog, err := s.writer(k)
	if err != nil {
		return true, err
	}
	shown := w
	lim := s.limitRows(k, s.modeFor(k))
	if lim != nil {
		lim.Writer = w
		w = lim
	}
	n, err := output.Copy(w, rows)
	cerr := w.Close()
	if prog != nil {
		prog.Done()
	}
	if err != nil {
		return true, interrupted(ctx, err)
	}
	if cerr == nil && k == nil {
		s.footer(n, lim, output.HiddenColumns(shown), len(cols))
	}
	return true, cerr
}

// interrupted maps the error of a cancelled statement to ErrInterrupted
// (database/sql reports context.Canceled, SQLite "interrupted").
func interrupted(ctx context.Context, err error) error {
	if err != nil && (ctx.Err() != nil || errors.Is(err, context.Canceled)) {
		return ErrInterrupted
	}
	return err
}

// writer returns a formatter for the destination k (nil = stdout) in
// the effective mode and, for a file while stderr is a terminal, the
// progress line it reports to.
func (s *Shell) writer(k *sink) (output.Writer, *output.Progress, error) {
	var dst io.Writer = s.opt.Stdout
	mode := s.modeFor(k)
	var prog *output.Progress
	if k != nil {
		dst = k.file
		if s.opt.StderrTerminal {
			prog = output.NewProgress(s.opt.Stderr)
			prog.SetWidth(s.termWidth())
			dst = prog.CountBytes(dst)
		}
	}
	opts := output.Options{Header: s.header, Null: s.null, Widths: s.widths}
	if k == nil && s.opt.StdoutTerminal {
		switch mode {
		case output.Box, output.Table, output.ColumnMode:
			width := s.termWidth()
			opts.FitWidth = width
			if mode != output.ColumnMode {
				opts.MaxWidth = cellWidth(width)
			}
		}
	}
	w, err := output.New(mode, dst, opts)
	if err != nil {
		if prog != nil {
			prog.Done()
		}
		return nil, nil, err
	}
	if prog != nil {
		w = prog.Wrap(w)
	}
	return w, prog, nil
}

// cellWidth is the widest cell box and table show on a terminal of the
// given width: a third of it, within 24..80 (40 when unknown).
func cellWidth(termWidth int) int {
	if termWidth <= 0 {
		return 40
	}
	return min(80, max(24, termWidth/3))
}

// currentMode is the mode results to the current destination use.
func (s *Shell) currentMode() output.Mode { return s.modeFor(s.out) }

// queryRows runs a catalog query of the dot commands and calls fn per
// row with the scanned values.
func (s *Shell) queryRows(ctx context.Context, q string, fn func(vals []any) error, args ...any) error {
	rows, err := s.conn.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if err := fn(vals); err != nil {
			return err
		}
	}
	return rows.Err()
}
