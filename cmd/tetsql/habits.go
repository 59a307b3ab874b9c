package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
)

// rcName is the file run before anything else unless --init names
// another or --no-init is given, as sqlite3 runs ~/.sqliterc.
const rcName = ".tetsqlrc"

// runInit runs the init file: --init FILE, else ~/.tetsqlrc if there is
// one; nothing with --no-init.
func runInit(ctx context.Context, sh *repl.Shell, o *options, stdin io.Reader) error {
	if o.noInit {
		return nil
	}
	path := o.init
	if path == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil
		}
		path = filepath.Join(home, rcName)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	}
	// An error in the init file stops it, is reported, and the rest of
	// the run goes on (sqlite3 does the same, also for a file it cannot
	// open), unless .bail is on.
	if err := runInitFile(ctx, sh, path, stdin); err != nil && !carryOn(sh, err) {
		return err
	}
	// As in sqlite3, the command line's settings win over the init file's.
	sh.Reassert(o.given...)
	return nil
}

// runInitFile runs the init file at path ("-": stdin); its errors
// read "init file PATH: …" or "init file PATH:LINE: …".
func runInitFile(ctx context.Context, sh *repl.Shell, path string, stdin io.Reader) error {
	in, name := stdin, "stdin"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the path is named once, below
			}
			return fmt.Errorf("init file %s: %w", path, err)
		}
		defer f.Close()
		in, name = f, path
	}
	if err := sh.RunScript(ctx, in, name); err != nil {
		return fmt.Errorf("init file %w", err)
	}
	return nil
}

// carryOn reports err, a failure of the init file or of a -cmd, and
// tells whether the run goes on: not after .quit or Ctrl-C, nor with
// .bail on (then the caller returns err, which is reported once).
func carryOn(sh *repl.Shell, err error) bool {
	if errors.Is(err, repl.ErrQuit) || errors.Is(err, repl.ErrInterrupted) || sh.Bail() {
		return false
	}
	sh.Report(err)
	return true
}
