package repl

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// errParquetTerminal refuses Parquet results on a terminal: binary data
// there is useless and may upset the terminal.
var errParquetTerminal = errors.New("parquet output is binary and is not written to a terminal: " +
	"use -o FILE.parquet or .once FILE.parquet, or redirect standard output")

// modeFor is the mode of results going to k (nil = standard output).
func (s *Shell) modeFor(k *sink) output.Mode {
	switch {
	case s.modeSet:
		return s.mode
	case k != nil:
		return k.mode
	case s.opt.StdoutTerminal:
		return output.Box
	}
	return output.CSV
}

// writeParquet writes the result set rows as one Parquet file to k (nil
// = standard output). A Parquet file holds exactly one result set, so a
// file that already holds results is refused.
func (s *Shell) writeParquet(ctx context.Context, rows *sql.Rows, k *sink) error {
	return s.parquetTo(ctx, k, func(w io.Writer, opts tetsql.ParquetOptions) error {
		_, err := tetsql.WriteParquet(w, rows, opts)
		return err
	})
}

// exportParquet writes the result of the export e as one Parquet file to
// k (nil = standard output), as writeParquet does.
func (s *Shell) exportParquet(ctx context.Context, e *tetsql.Export, k *sink) error {
	return s.parquetTo(ctx, k, func(w io.Writer, opts tetsql.ParquetOptions) error {
		_, err := e.WriteParquet(ctx, w, opts)
		return err
	})
}

// parquetTo refuses a destination a Parquet file cannot go to, then has
// write write it, with a progress line on a terminal.
func (s *Shell) parquetTo(ctx context.Context, k *sink, write func(io.Writer, tetsql.ParquetOptions) error) error {
	var dst io.Writer = s.opt.Stdout
	var prog *output.Progress
	switch {
	case k != nil && k.parquet:
		return fmt.Errorf("%s already holds a Parquet result set and a Parquet file holds one: use .once FILE for each query", k.path)
	case k != nil && k.wrote > 0:
		return fmt.Errorf("%s already holds results: a Parquet result set needs a file of its own (.once FILE.parquet)", k.path)
	case k == nil && s.opt.StdoutTerminal:
		return errParquetTerminal
	case k != nil:
		dst = k.file
	}
	opts := tetsql.ParquetOptions{Compression: s.opt.Compression}
	if s.opt.StderrTerminal { // rows, bytes and rates on stderr
		prog = output.NewProgress(s.opt.Stderr)
		dst = prog.CountBytes(dst)
		opts.Progress = prog.Add
	}
	err := write(dst, opts)
	if prog != nil {
		prog.Done()
	}
	if err != nil {
		return interrupted(ctx, err)
	}
	if k != nil {
		k.parquet = true
	}
	return nil
}
