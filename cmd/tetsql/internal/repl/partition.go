package repl

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// ExportPartitioned runs the one statement query and writes its rows as
// a hive-partitioned Parquet dataset in dir, partitioned by the columns
// by (see tetsql.WriteParquetPartitioned). The shell's -o, .once and
// .output are not involved: dir is written only here, through a
// temporary directory renamed on success.
func (s *Shell) ExportPartitioned(ctx context.Context, query, dir string, by []string) error {
	stmts, rest := splitScript(query)
	if strings.TrimSpace(rest) != "" {
		stmts = append(stmts, rest)
	}
	if len(stmts) != 1 {
		return usageError{fmt.Errorf("--partition-by exports the result of one statement (got %d)", len(stmts))}
	}
	if err := s.checkNotInput(dir); err != nil {
		return err
	}
	rows, err := s.conn.QueryContext(ctx, stmts[0])
	if err != nil {
		return interrupted(ctx, err)
	}
	defer rows.Close()
	if cols, err := rows.Columns(); err == nil && len(cols) == 0 {
		return errors.New("--partition-by: the statement returns no result set")
	}
	untrack := func() {}
	defer func() { untrack() }()
	opts := tetsql.ParquetOptions{Compression: s.opt.Compression,
		OnTempDir: func(tmp string) { untrack = output.TrackTempDir(tmp) }} // removed on SIGTERM too
	var prog *output.Progress
	if s.opt.StderrTerminal { // rows and rate on stderr
		prog = output.NewProgress(s.opt.Stderr)
		prog.SetWidth(s.termWidth())
		opts.Progress = prog.Add
	}
	files, n, err := tetsql.WriteParquetPartitioned(dir, rows, by, opts)
	if prog != nil {
		prog.Done()
	}
	if err != nil {
		return interrupted(ctx, err)
	}
	if s.opt.StderrTerminal {
		fmt.Fprintf(s.opt.Stderr, "%d rows in %d files under %s\n", n, files, dir)
	}
	return nil
}
