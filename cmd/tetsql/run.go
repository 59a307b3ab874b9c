package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"sync"

	"golang.org/x/term"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3");
// otherwise the module version from the build info is used.
var version string

// Exit statuses.
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitInterrupted = 130
)

// errAborted ends the shell's output files when run does not reach its
// normal end.
var errAborted = errors.New("aborted")

// run is the whole command: it returns the exit status. stdin, stdout
// and stderr are the process's streams, or buffers in tests (which are
// never terminals).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := parseFlags(args)
	switch {
	case errors.Is(err, errHelp):
		writeUsage(stdout)
		return exitOK
	case err != nil:
		fmt.Fprintf(stderr, "Error: %s\nTry 'tetsql --help'.\n", repl.Message(err))
		return exitUsage
	case o.version:
		fmt.Fprintln(stdout, versionText())
		return exitOK
	}
	cfg := tetsql.Config{Files: o.files}
	for _, f := range []struct {
		flag, value string
		min         int64
		dst         *int64
	}{
		{"--max-chunk-bytes", o.maxChunkBytes, 1, &cfg.MaxChunkBytes},
		{"--cache-budget", o.cacheBudget, 0, &cfg.CacheBudget},
		{"--mem-limit", o.memLimit, 1, &cfg.MemLimit},
		{"--read-ahead-bytes", o.readAheadBytes, 1, &cfg.ReadAheadBytes},
	} {
		if f.value == "" {
			continue
		}
		n, err := tetsql.ParseSize(f.value)
		if err != nil || n < f.min {
			kind := "a size"
			if f.min > 0 {
				kind = "a positive size"
			}
			fmt.Fprintf(stderr, "Error: %s %q: want %s such as 256MiB\n", f.flag, f.value, kind)
			return exitUsage
		}
		*f.dst = n
	}
	if o.cacheBudget != "" && cfg.CacheBudget == 0 {
		cfg.CacheBudget = -1 // --cache-budget 0: no cache (0 in Config is the default)
	}
	cfg.ReadAhead = o.readAhead
	cfg.Safe = o.safe
	cfg.NoAggRewrite = o.noAggRewrite
	if o.timeout != "" {
		d, err := tetsql.ParseTimeout(o.timeout)
		if err != nil {
			fmt.Fprintf(stderr, "Error: --statement-timeout %q: want a duration such as 30s (0 = none)\n", o.timeout)
			return exitUsage
		}
		cfg.StatementTimeout = d
	}
	cfg.MaxRows = o.maxRows
	cfg.OnErrorSkip = o.onErrorSkip
	cfg.Warn = warnTo(stderr)
	connector, err := tetsql.NewConnector(cfg)
	if err != nil { // a bad or duplicate alias
		fmt.Fprintf(stderr, "Error: %s\n", repl.Message(err))
		return exitUsage
	}
	db := sql.OpenDB(connector)
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	conn, err := db.Conn(ctx) // opens and attaches every file
	if err != nil {
		fmt.Fprintf(stderr, "Error: %s\n", repl.Message(err))
		return exitError
	}
	defer conn.Close()

	inTTY, outTTY, errTTY := isTerminal(stdin), isTerminal(stdout), isTerminal(stderr)
	interactive := isInteractive(o, inTTY)
	opt := repl.Options{Mode: o.mode, Compression: o.compression, Header: o.header, Null: o.null, Timer: o.timer, Stats: o.stats, Echo: o.echo, Bail: o.bail, Safe: o.safe, MaxChunkBytes: cfg.MaxChunkBytes,
		Stdout: stdout, Stderr: stderr, StdoutTerminal: outTTY, StderrTerminal: errTTY, Footer: outTTY, StdoutRegular: isRegular(stdout),
		WidthNow: func() int { // the results' terminal, else the messages'
			if w := termWidth(stdout); w > 0 {
				return w
			}
			return termWidth(stderr)
		}}
	defer onTerminate()()
	if interactive {
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, os.Interrupt)
		defer signal.Stop(sigs)
		opt.Interrupts = sigs
	} else {
		var stop context.CancelFunc
		ctx, stop = context.WithCancel(ctx)
		defer stop()
		defer onInterrupt(stop)()
	}
	sh, err := repl.New(conn, opt)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %s\nTry 'tetsql --help'.\n", repl.Message(err))
		return exitUsage
	}
	// Should anything below panic, no temporary output file stays
	// behind (a no-op after the CloseAfter below).
	defer sh.CloseAfter(errAborted)
	err = session(ctx, sh, o, stdin, stdout, stderr, interactive, inTTY && outTTY)
	if cerr := sh.CloseAfter(err); err == nil {
		err = cerr
	}
	if code, ok := repl.ExitCode(err); ok { // .exit N
		return code
	}
	switch {
	case err == nil || errors.Is(err, repl.ErrQuit):
		return exitOK
	case errors.Is(err, repl.ErrInterrupted):
		fmt.Fprintln(stderr, "Error: interrupted")
		return exitInterrupted
	case errors.Is(err, repl.ErrBail): // reported by the shell already
		return exitError
	}
	fmt.Fprintf(stderr, "Error: %s\n", repl.Message(err))
	if repl.IsUsage(err) {
		return exitUsage
	}
	return exitError
}

// warnTo returns a Config.Warn writing "tetsql: warning: ..." lines to
// w; the tables of a glob may warn from several goroutines at once.
func warnTo(w io.Writer) func(string) {
	var mu sync.Mutex
	return func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintln(w, "tetsql: warning: "+msg)
	}
}

// isInteractive tells whether the command line asks for the
// interactive shell: no SQL, -c or -f, and stdin a terminal, unless
// --batch (-batch) or --no-stdin says otherwise, or --interactive
// (-interactive) even when it is not one, as in sqlite3.
func isInteractive(o *options, inTTY bool) bool {
	if o.hasSQL || len(o.commands) > 0 || len(o.scripts) > 0 || o.noStdin || o.batch {
		return false
	}
	return inTTY || o.interactive
}

// session runs what the command line asks for: the init file and --cmd
// commands first, then the -c commands and -f scripts in command-line
// order and the SQL argument, or else the shell or a script from stdin
// (nothing with --no-stdin).
func session(ctx context.Context, sh *repl.Shell, o *options, stdin io.Reader, stdout, stderr io.Writer, interactive, editing bool) error {
	if err := runInit(ctx, sh, o, stdin); err != nil {
		return err
	}
	for _, c := range o.cmds {
		if err := sh.Exec(ctx, c); err != nil {
			// As in sqlite3, a failing -cmd is reported and the rest
			// runs, unless .bail is on.
			if !carryOn(sh, err) {
				return err
			}
		}
	}
	if len(o.partitionBy) > 0 { // checked by parseFlags: -o DIR and one query
		return sh.ExportPartitioned(ctx, o.sql, o.output, o.partitionBy)
	}
	if o.output != "" {
		// In a script run the file is replaced only if the whole run
		// succeeds; in the shell it is kept like a .output file.
		set := sh.SetOutputWhole
		if interactive {
			set = sh.SetOutput
		}
		if err := set(o.output); err != nil {
			return err
		}
	}
	for _, s := range o.steps { // -c and -f in command-line order
		var err error
		if s.file {
			err = runFile(ctx, sh, s.text, stdin)
		} else {
			err = sh.Exec(ctx, s.text)
		}
		if err != nil {
			return err
		}
	}
	if o.hasSQL { // even empty: it runs nothing, and stdin is not read
		return sh.Exec(ctx, o.sql)
	}
	if len(o.commands) > 0 || len(o.scripts) > 0 || o.noStdin {
		return nil
	}
	if !interactive {
		return sh.RunScript(ctx, stdin, "stdin")
	}
	if !editing { // output redirected, or input not a terminal (--interactive)
		if err := sh.Greet(ctx, stderr, versionString()); err != nil {
			return err
		}
		return sh.Interactive(ctx, repl.NewPrompter(stdin, stderr))
	}
	if err := sh.Greet(ctx, stdout, versionString()); err != nil {
		return err
	}
	history := repl.HistoryPath()
	if o.safe { // the typed SQL is not written to a file either
		history = ""
	}
	t := repl.NewTerminal(history)
	defer t.Close()
	t.SetCompleter(sh.CompleteWord)
	return sh.Interactive(ctx, t)
}

func runFile(ctx context.Context, sh *repl.Shell, path string, stdin io.Reader) error {
	if path == "-" {
		return sh.RunScript(ctx, stdin, "stdin")
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return sh.RunScript(ctx, f, path)
}

// isTerminal reports whether f is an *os.File on a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}

// isRegular reports whether f is an *os.File that is a regular file.
func isRegular(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	st, err := file.Stat()
	return err == nil && st.Mode().IsRegular()
}

// termWidth is the width of the terminal f is on (0 if unknown).
func termWidth(f any) int {
	if file, ok := f.(*os.File); ok {
		if w, _, err := term.GetSize(int(file.Fd())); err == nil {
			return w
		}
	}
	return 0
}

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// versionText is the --version line: tetsql, SQLite and Go versions.
func versionText() string {
	sqlite := "?"
	if c, err := tetsql.NewConnector(tetsql.Config{}); err == nil {
		db := sql.OpenDB(c)
		db.QueryRow("SELECT sqlite_version()").Scan(&sqlite)
		db.Close()
	}
	return fmt.Sprintf("tetsql %s (SQLite %s, %s)", versionString(), sqlite, runtime.Version())
}
