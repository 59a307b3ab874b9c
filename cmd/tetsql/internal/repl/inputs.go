package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// errOutputIsInput is the error of an output file (-o, .output, .once)
// that is one of the shell's inputs: an attached .tet file or database,
// or a script being read. Writing it would destroy the input.
var errOutputIsInput = errors.New("is an input of this session")

// input is a file the shell reads from.
type input struct {
	what string // for messages: "attached as demo", "a script read"
	fi   os.FileInfo
}

// addScript records r, when it is a regular file, as an input of the
// session (a script is never replaced by an output, even after it was
// read), and refuses it when it is the target of the current output.
func (s *Shell) addScript(r io.Reader, name string) error {
	f, ok := r.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	for _, k := range []*sink{s.out, s.once} {
		if k == nil || k.file.Direct() {
			continue
		}
		if ti, err := os.Stat(k.file.Target()); err == nil && os.SameFile(fi, ti) {
			return fmt.Errorf("script %s is the output file %s; choose another output file", name, k.path)
		}
	}
	for _, in := range s.scripts {
		if os.SameFile(fi, in.fi) {
			return nil
		}
	}
	s.scripts = append(s.scripts, input{what: "a script read", fi: fi})
	return nil
}

// inputs lists the files the session reads: every attached .tet file
// and SQLite database, every file a glob's tables match, and the
// scripts read.
func (s *Shell) inputs() ([]input, error) {
	// Not the statement's context: this also runs after a Ctrl-C.
	scs, err := s.schemas(context.Background())
	if err != nil {
		return nil, fmt.Errorf("listing the attached files: %w", err)
	}
	out := append([]input(nil), s.scripts...)
	for _, sc := range scs {
		path := sc.file
		if sc.tet {
			path = sc.path
		}
		if path == "" {
			continue
		}
		fi, err := os.Stat(path)
		if err != nil {
			continue // gone or renamed: no longer the file at path
		}
		out = append(out, input{what: "attached as " + sc.name, fi: fi})
	}
	return append(out, s.globInputs(context.Background(), scs)...), nil
}

// checkNotInput refuses an output path that resolves to an input: the
// same file (device and inode) by any name, a symlink or a hard link.
func (s *Shell) checkNotInput(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil // /dev/null, a FIFO: written in place, never replaced
	}
	ins, err := s.inputs()
	if err != nil {
		return fmt.Errorf("output %s: %w", path, err)
	}
	dir, _ := os.Stat(filepath.Dir(path))
	for _, in := range ins {
		// An input that is a directory (a Blosc2 sparse frame) is read
		// from the files in it.
		if os.SameFile(fi, in.fi) || (in.fi.IsDir() && dir != nil && os.SameFile(dir, in.fi)) {
			return fmt.Errorf("output %s %w (%s); choose another output file", path, errOutputIsInput, in.what)
		}
	}
	return nil
}
