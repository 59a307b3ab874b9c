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

// runInit runs the init file: --init FILE (which must exist), else
// ~/.tetsqlrc if there is one; nothing with --no-init.
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
	if err := runFile(ctx, sh, path, stdin); err != nil {
		return fmt.Errorf("init file %s: %w", path, err)
	}
	// As in sqlite3, the command line's settings win over the init file's.
	sh.Reassert(o.given...)
	return nil
}
