package repl

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// ErrQuit is returned by Exec and the script runners for .quit/.exit.
var ErrQuit = errors.New("quit")

// ErrInterrupted is the error of a statement cancelled by Ctrl-C
// (SIGINT), or by the cancellation of the context it ran under.
var ErrInterrupted = errors.New("interrupted")

// Options are the shell's starting settings (the command-line flags).
type Options struct {
	Mode   string // output mode name; "" = box on a terminal, else csv
	Header bool   // header row in csv, tsv and column
	Null   string // text shown for NULL
	Timer  bool   // print "Run Time: real … s" after each statement
	Stats  bool   // print one "stats: …" line per cells scan
	Echo   bool   // print each command before running it (.echo)
	Bail   bool   // end the interactive shell at the first error (.bail)

	// Compression is the codec of Parquet output, one of
	// tetsql.ParquetCompressions ("" = zstd).
	Compression string

	Stdout io.Writer // results (unless redirected by .output)
	Stderr io.Writer // errors, stats, timer, progress

	// StdoutTerminal makes box the default mode and narrows wide cells;
	// StderrTerminal enables the progress line of exports to a file.
	StdoutTerminal, StderrTerminal bool
	// StdoutRegular tells that standard output is a regular file (a
	// redirect): the progress line is drawn then, but not for a pipe,
	// which may end on the same terminal.
	StdoutRegular bool
	// Width is the terminal's width in columns (0 = unknown); box and
	// table output on the terminal cut cells wider than a third of it.
	Width int
	// WidthNow, when set, is asked for the terminal's width before each
	// result (the window may have been resized); it overrides Width.
	WidthNow func() int
	// Footer prints a line after each result shown on the terminal: its
	// row count, the rows and columns a grid held back, and the time
	// the statement took ("3 rows · 0.004 s"). Set it when stdout is a
	// terminal. Without it, a grid that held rows or columns back still
	// says so, without the time.
	Footer bool
	// Now is the shell's clock (nil = time.Now); tests fix it.
	Now func() time.Time

	// Safe refuses the dot commands that name a path or reach the shell
	// (.open, .output, .once, .read, …) with "not allowed in safe mode:
	// .open"; use it with a connection in safe mode (tetsql.Config.Safe).
	Safe bool

	// MaxChunkBytes is the connection's chunk size limit (0 = default),
	// which .verify --deep applies too.
	MaxChunkBytes int64

	// Interrupts delivers SIGINT; each one cancels the running statement.
	// nil: statements run until done.
	Interrupts <-chan os.Signal
}

// Shell runs SQL and dot commands on one connection and prints results.
// It is not safe for concurrent use.
type Shell struct {
	conn *sql.Conn
	opt  Options

	mode     output.Mode
	modeSet  bool // mode chosen explicitly (flag or .mode)
	flagMode bool // ... by Options.Mode, not changed by .mode since: it applies to -o
	header   bool
	null     string
	timer    bool
	stats    bool
	maxRows  int64     // rows a grid shows on a terminal (.maxrows; 0 = all)
	echo     bool      // .echo
	bail     bool      // .bail
	widths   []int     // .width: column widths of the grid modes
	params   params    // .parameter: values bound to statement parameters
	out      *sink     // .output destination; nil = Stdout
	once     *sink     // .once destination for the next statement
	depth    int       // .read nesting
	scripts  []input   // scripts read (never an output)
	interact bool      // inside Interactive
	guarded  bool      // a statement runs under guard
	started  time.Time // when the running statement started (the footer's time)
	// stdoutHeld is the binary format of a result set written to
	// standard output (one Parquet file or Arrow stream; a second one
	// after it would be lost to readers).
	stdoutHeld binaryFormat
	live       liveState // progress line and _agg hint (liveprogress.go)
}

// New returns a shell on conn, which must stay open until CloseAfter.
func New(conn *sql.Conn, opt Options) (*Shell, error) {
	s := &Shell{conn: conn, opt: opt, header: opt.Header, null: opt.Null, timer: opt.Timer, stats: opt.Stats,
		maxRows: DefaultMaxRows, echo: opt.Echo, bail: opt.Bail}
	if s.opt.Stdout == nil {
		s.opt.Stdout = io.Discard
	}
	if s.opt.Stderr == nil {
		s.opt.Stderr = io.Discard
	}
	if opt.Mode != "" {
		m, err := output.ParseMode(opt.Mode)
		if err != nil {
			return nil, usageError{err}
		}
		s.mode, s.modeSet, s.flagMode = m, true, true
	}
	if c := strings.ToLower(opt.Compression); c != "" && !slices.Contains(tetsql.ParquetCompressions, c) {
		return nil, usageError{fmt.Errorf("unknown compression %q (valid: %s)", opt.Compression, strings.Join(tetsql.ParquetCompressions, ", "))}
	}
	return s, nil
}

// usageError marks errors in how the shell was invoked.
type usageError struct{ err error }

func (u usageError) Error() string { return strings.TrimPrefix(u.err.Error(), "output: ") }
func (u usageError) Unwrap() error { return u.err }

// IsUsage reports whether err is a usage error (a bad mode name, say).
func IsUsage(err error) bool {
	var u usageError
	return errors.As(err, &u)
}

// SetOutput sends results to the file at path from now on (.output);
// "" or "-" means back to standard output. The file is written under a
// temporary name and replaces path when output is switched again or the
// shell closes, holding the results of the statements that succeeded;
// if none did, path is left as it was. A path that is one of the
// session's inputs is refused, since writing it would destroy it. When the new file
// cannot be opened, the current output stays.
func (s *Shell) SetOutput(path string) error { return s.setOutput(path, sinkSession, false) }

// SetOutputWhole is SetOutput for the results of a whole run (-o in a
// script run): path is replaced only if the run ends without an error,
// that is, if CloseAfter gets nil or ErrQuit.
func (s *Shell) SetOutputWhole(path string) error { return s.setOutput(path, sinkWhole, false) }

// setOutput switches the output to path; dot tells .output from -o,
// to which a mode flag given with it applies (see userMode), but not a
// .mode of the init file.
func (s *Shell) setOutput(path string, kind sinkKind, dot bool) error {
	var next *sink
	if path != "" && path != "-" {
		k, err := s.openSink(path, kind)
		if err != nil {
			return err
		}
		k.modeSet = !dot && s.flagMode
		if dot {
			s.announce(k)
		}
		next = k
	}
	var err error
	if s.out != nil {
		err = s.closeSink(s.out, false)
	}
	s.out = next
	return err
}

// CloseAfter closes any output file at the end of a run that ended with
// runErr: a pending .once file is discarded, a .output file replaces its
// target if a statement succeeded, a SetOutputWhole file only if runErr
// is nil or ErrQuit.
func (s *Shell) CloseAfter(runErr error) error {
	failed := runErr != nil && !errors.Is(runErr, ErrQuit)
	var errs []error
	if s.once != nil {
		errs = append(errs, s.closeSink(s.once, failed))
		s.once = nil
	}
	if s.out != nil {
		errs = append(errs, s.closeSink(s.out, failed))
		s.out = nil
	}
	return errors.Join(errs...)
}

// Exec runs one command-line item: a dot command, or SQL holding one or
// more statements (the last may lack its ';').
func (s *Shell) Exec(ctx context.Context, text string) error {
	if isDot(text) {
		return s.dot(ctx, text)
	}
	stmts, rest := splitScript(text)
	if rest != "" {
		stmts = append(stmts, rest)
	}
	for _, q := range stmts {
		if err := s.runSQL(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// isDot reports whether a line is a dot command: a '.' first (after
// blanks) when no statement is pending.
func isDot(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " \t"), ".")
}

// RunScript runs the commands read from r until its end, stopping at the
// first error, which it returns prefixed with name and the line number
// ("q.sql:3: …"). A last statement without ';' runs too.
func (s *Shell) RunScript(ctx context.Context, r io.Reader, name string) error {
	if err := s.addScript(r, name); err != nil {
		return err
	}
	s.live.scripts++
	defer func() { s.live.scripts-- }()
	lr := newScanner(r)
	var buf buffer
	var echo echoLines
	lineNo, stmtLine := 0, 0
	fail := func(at int, err error) error {
		if errors.Is(err, ErrQuit) || errors.Is(err, ErrInterrupted) {
			return err
		}
		return &scriptError{name: name, line: at, err: err}
	}
	for {
		line, err := lr.ReadLine("")
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, withoutPath(err, name))
		}
		lineNo++
		if buf.Empty() && isDot(line) {
			s.echoText(line)
			if err := s.dot(ctx, line); err != nil {
				return fail(lineNo, err)
			}
			continue
		}
		if buf.Empty() {
			stmtLine = lineNo
		}
		stmts := buf.Add(line)
		echo.add(s, line, len(stmts) > 0, !buf.Empty())
		for _, q := range stmts {
			if err := s.runSQL(ctx, q); err != nil {
				return fail(stmtLine, err)
			}
			stmtLine = lineNo
		}
	}
	if q := buf.Flush(); q != "" {
		echo.flush(s)
		if err := s.runSQL(ctx, q); err != nil {
			return fail(stmtLine, err)
		}
	}
	return nil
}

// scriptError locates an error in a script.
type scriptError struct {
	name string
	line int
	err  error
}

func (e *scriptError) Error() string { return fmt.Sprintf("%s:%d: %v", e.name, e.line, e.err) }
func (e *scriptError) Unwrap() error { return e.err }

// errorf prints an error the way the shell reports every error.
func (s *Shell) errorf(err error) {
	fmt.Fprintf(s.opt.Stderr, "Error: %s\n", Message(err))
}

// Report prints err as the shell prints every error, for a command that
// failed without ending the run (an init file, a -cmd).
func (s *Shell) Report(err error) { s.errorf(err) }

// Bail reports whether .bail (or -bail) is on: the first error ends the
// run.
func (s *Shell) Bail() bool { return s.bail }

// Message is the text of err as the shell prints it after "Error: ":
// without SQLite's generic "SQL logic error: " prefix and numeric result
// code, Go package prefixes and Go's wordings (errtext.go), and, for a
// statement SQLite's message places, the statement's line with a caret
// under the token (errpos.go).
func Message(err error) string { return messageOf(err) }
