package repl

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// binaryFormat describes a binary output mode for messages: "a Parquet"
// and the file extension suggested for it. The zero value is none.
type binaryFormat struct{ name, ext string }

// binaryFormats are the binary modes' names and extensions.
var binaryFormats = map[output.Mode]binaryFormat{
	output.Parquet: {"a Parquet", ".parquet"},
	output.Arrow:   {"an Arrow", ".arrows"},
}

// modeFor is the mode of results going to k (nil = standard output).
func (s *Shell) modeFor(k *sink) output.Mode {
	switch {
	case s.userMode(k):
		return s.mode
	case k != nil:
		return k.mode
	case s.opt.StdoutTerminal:
		return output.Box
	}
	return output.CSV
}

// writeBinary writes the result set rows in the binary mode m (Parquet,
// Arrow) to k (nil = standard output), as binaryTo says.
func (s *Shell) writeBinary(ctx context.Context, rows *sql.Rows, k *sink, m output.Mode) error {
	return s.binaryTo(ctx, k, m, func(w io.Writer, progress func(int64)) error {
		var err error
		aopts := tetsql.ArrowOptions{Progress: progress}
		switch {
		case m == output.Arrow && k != nil && arrowFilePath(k.path):
			_, err = tetsql.WriteArrowFile(w, rows, aopts)
		case m == output.Arrow:
			_, err = tetsql.WriteArrow(w, rows, aopts)
		default:
			_, err = tetsql.WriteParquet(w, rows, tetsql.ParquetOptions{Compression: s.opt.Compression, Progress: progress})
		}
		return err
	})
}

// exportBinary writes the result of the export e in the binary mode m to
// k (nil = standard output), as writeBinary does, straight from the cells
// scan where the query allows.
func (s *Shell) exportBinary(ctx context.Context, e *tetsql.Export, k *sink, m output.Mode) error {
	return s.binaryTo(ctx, k, m, func(w io.Writer, progress func(int64)) error {
		var err error
		aopts := tetsql.ArrowOptions{Progress: progress}
		switch {
		case m == output.Arrow && k != nil && arrowFilePath(k.path):
			_, err = e.WriteArrowFile(ctx, w, aopts)
		case m == output.Arrow:
			_, err = e.WriteArrow(ctx, w, aopts)
		default:
			_, err = e.WriteParquet(ctx, w, tetsql.ParquetOptions{Compression: s.opt.Compression, Progress: progress})
		}
		return err
	})
}

// binaryTo refuses a destination the binary mode m cannot go to, then has
// write write it, with a progress line on a terminal (also when standard
// output is piped). Such a file or stream holds exactly one result set,
// so a file that already holds results is refused, and binary data is
// never written to a terminal (useless there, and it may upset the
// terminal).
func (s *Shell) binaryTo(ctx context.Context, k *sink, m output.Mode, write func(w io.Writer, progress func(int64)) error) error {
	f := binaryFormats[m]
	var dst io.Writer = s.opt.Stdout
	switch {
	case k != nil && k.held.name != "":
		return fmt.Errorf("%s already holds %s result set and %s file holds one: use .once FILE for each query", k.path, k.held.name, k.held.name)
	case k != nil && k.wrote > 0:
		return fmt.Errorf("%s already holds results: %s result set needs a file of its own (.once FILE%s)", k.path, f.name, f.ext)
	case k == nil && s.stdoutHeld.name != "":
		return fmt.Errorf("standard output already holds %s result set, and readers take one from a pipe: use .once FILE%s for each query",
			s.stdoutHeld.name, f.ext)
	case k == nil && s.opt.StdoutTerminal:
		return fmt.Errorf("%s output is binary and is not written to a terminal: "+
			"use -o FILE%s or .once FILE%s, or redirect standard output", m, f.ext, f.ext)
	case k != nil:
		dst = k.file
	}
	if k == nil && m == output.Arrow {
		// Killed mid-stream (SIGTERM, SIGHUP, a second Ctrl-C), the pipe
		// is cut inside a message: a reader must not take the batches
		// so far for the whole result.
		out := s.opt.Stdout
		defer output.TrackCut(func() { tetsql.CutArrowStream(out) })()
	}
	progress := func(int64) {}
	var prog *output.Progress
	if s.opt.StderrTerminal { // rows, bytes and rates on stderr
		prog = output.NewProgress(s.opt.Stderr)
		prog.SetWidth(s.termWidth())
		dst = prog.CountBytes(dst)
		progress = prog.Add
	}
	err := write(dst, progress)
	if prog != nil {
		prog.Done()
	}
	if err != nil {
		return interrupted(ctx, err)
	}
	if k != nil {
		k.held = f
	} else {
		s.stdoutHeld = f
	}
	return nil
}

// arrowFilePath reports whether Arrow output to path takes the IPC file
// format (.arrow, .feather: what pyarrow.feather and `.arrow` readers
// open) rather than the IPC stream format (.arrows and anything else).
func arrowFilePath(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".arrow", ".feather":
		return true
	}
	return false
}
