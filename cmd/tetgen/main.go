// Command tetgen writes synthetic .tet files for demos, tests and
// benchmarks, streaming chunk by chunk so that files of any size can be
// made in little memory.
//
//	tetgen -o grid.tet --dataset 'grid:f32:4096x4096:256x256:zstd:y,x'
//	tetgen -o testdata/demo.tet --preset demo
//
// Run tetgen --help for every option. Exit status: 0 on success, 1 when
// writing fails, 2 for a usage error.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/tetsql/tetsql/cmd/tetgen/internal/gen"
)

const usageHead = `tetgen writes synthetic .tet files.

Usage:
  tetgen -o FILE --dataset SPEC [--dataset SPEC]... [--labels L]... [--attr A]... [options]
  tetgen -o FILE --preset demo

  SPEC   NAME:DTYPE:SHAPE:CHUNK[:CODEC[:DIM,DIM,...]]
         DTYPE f16 f32 f64 i16 i32 i64 u8 u16 u32 u64; SHAPE and CHUNK AxBxC;
         CODEC raw (default) or zstd; DIMs name the axes (default d0,d1,...)
  L      NAME.DIM=dates:2024-01-01   consecutive days from a start date
         NAME.DIM=seq:S%04d          fmt.Sprintf(FMT, index)
         NAME.DIM=list:a,b,c         one label per index
  A      NAME.KEY=VALUE              a dataset attribute (units, long_name, ...)

Patterns: wave = smooth sin/cos field plus 1% noise (floats in about
[-1, 1] in steps of 1/1024, integers scaled); ramp = the global row-major
index (small integers wrap); random = uniform (floats in [0,1), integers
over the whole range). The same arguments always give the same bytes.

Example:
  tetgen -o grid.tet --dataset 'grid:f32:4096x4096:256x256:zstd:y,x' \
         --labels 'grid.y=seq:row%d' --attr 'grid.units=K'

Options:
`

// usageError marks errors that exit with status 2.
type usageError struct{ error }

func main() {
	os.Exit(run(os.Args[1:], os.Stderr, isTerminal(os.Stderr)))
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// run is main without the process: it returns the exit status.
func run(args []string, stderr io.Writer, tty bool) int {
	err := runErr(args, stderr, tty)
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, pflag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "tetgen: %v\nRun 'tetgen --help' for usage.\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "tetgen: %v\n", err)
	return 1
}

func runErr(args []string, stderr io.Writer, tty bool) error {
	fs := pflag.NewFlagSet("tetgen", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	var (
		out, pattern, preset    string
		datasets, labels, attrs []string
		seed                    uint64
		jobs                    int
		showProgress            bool
	)
	fs.StringVarP(&out, "output", "o", "", "`FILE` to write (replaced if it exists)")
	fs.StringArrayVar(&datasets, "dataset", nil, "dataset `SPEC` (repeatable)")
	fs.StringArrayVar(&labels, "labels", nil, "coordinate labels `NAME.DIM=KIND:ARG` (repeatable)")
	fs.StringArrayVar(&attrs, "attr", nil, "dataset attribute `NAME.KEY=VALUE` (repeatable)")
	fs.StringVar(&pattern, "pattern", "wave", "values: `ramp|wave|random`")
	fs.Uint64Var(&seed, "seed", 1, "random seed for wave and random")
	fs.StringVar(&preset, "preset", "", "write a built-in file instead: `demo` (testdata/demo.tet)")
	fs.IntVarP(&jobs, "jobs", "j", 0, "chunk generators running in parallel (default: number of CPUs)")
	fs.BoolVar(&showProgress, "progress", false, "show progress even when stderr is not a terminal")
	fs.Usage = func() {
		io.WriteString(stderr, usageHead)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	cfg, err := buildConfig(fs, out, preset, pattern, seed, datasets, labels, attrs)
	if err != nil {
		return usageError{err}
	}
	if jobs < 0 {
		return usageError{fmt.Errorf("--jobs %d: must be 0 (all CPUs) or more", jobs)}
	}
	opt := gen.Options{Workers: jobs}
	if tty || showProgress {
		p := newProgress(stderr)
		defer p.clear()
		opt.Progress = p.update
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := gen.Write(ctx, out, cfg, opt); err != nil {
		if ctx.Err() != nil {
			return errors.New("interrupted; nothing written")
		}
		return err
	}
	return nil
}

func buildConfig(fs *pflag.FlagSet, out, preset, pattern string, seed uint64, datasets, labels, attrs []string) (*gen.Config, error) {
	switch {
	case fs.NArg() > 0:
		return nil, fmt.Errorf("unexpected argument %q (quote dataset specs and use --dataset)", fs.Arg(0))
	case out == "":
		return nil, fmt.Errorf("missing -o FILE")
	}
	if preset != "" {
		for _, f := range []string{"dataset", "labels", "attr", "pattern", "seed"} {
			if fs.Changed(f) {
				return nil, fmt.Errorf("--preset cannot be combined with --%s", f)
			}
		}
		return gen.Preset(preset)
	}
	if len(datasets) == 0 {
		return nil, fmt.Errorf("no --dataset given (or use --preset demo)")
	}
	p, err := gen.ParsePattern(pattern)
	if err != nil {
		return nil, err
	}
	cfg := &gen.Config{Pattern: p, Seed: seed, FileMeta: map[string]string{"tool": "tetgen", "pattern": p.String(), "seed": strconv.FormatUint(seed, 10)}}
	for _, s := range datasets {
		if err := cfg.AddDataset(s); err != nil {
			return nil, err
		}
	}
	for _, s := range labels {
		if err := cfg.AddLabels(s); err != nil {
			return nil, err
		}
	}
	for _, s := range attrs {
		if err := cfg.AddAttr(s); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}
