package output

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// File is an output file written under a temporary name in its target's
// directory and renamed over the target by Commit, so that a failed or
// interrupted export never truncates or half-writes the file it replaces.
// Abort removes the temporary file and leaves the target as it was.
//
// Targets that are not regular files (/dev/null, /dev/stdout, a FIFO, a
// terminal) and paths under /dev and /proc are written directly: they
// cannot be renamed over, and renaming over them would be wrong.
//
// A File is not safe for concurrent use.
type File struct {
	name   string // the path as given, for messages
	target string // where Commit renames to (symlinks resolved)
	tmp    string // the temporary file; "" when writing directly
	f      *os.File
	done   bool
}

// live holds the temporary files not yet committed or aborted, for
// RemoveTemps: path → whether it is a directory (TrackTempDir).
var live = struct {
	sync.Mutex
	m    map[string]bool
	cuts []func() // see TrackCut
}{m: map[string]bool{}}

// CreateFile starts an output file for path. It fails when path is a
// directory or its directory cannot hold a temporary file; the target
// itself is not touched until Commit.
func CreateFile(path string) (*File, error) {
	if path == "" {
		return nil, errors.New("output: empty file name")
	}
	target := path
	if li, err := os.Lstat(path); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		// Write where the link points, keeping the link, as os.Create
		// would; a dangling link is replaced by the file.
		if resolved, err := filepath.EvalSymlinks(path); err == nil {
			target = resolved
		}
	}
	fi, err := os.Stat(target)
	switch {
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("output %s: is a directory", path)
	case err == nil && !fi.Mode().IsRegular(), direct(path), direct(target):
		f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", path, osErr(err))
		}
		return &File{name: path, target: target, f: f}, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("output %s: %w", path, osErr(err))
	}
	// A new file gets 0666 less the umask, like os.Create; an existing
	// one keeps its permission bits.
	perm, keep := fs.FileMode(0o666), false
	if err == nil {
		perm, keep = fi.Mode().Perm(), true
	}
	f, tmp, err := createTemp(target, perm)
	if err != nil {
		// The temporary name is ours, not the user's: the message names
		// the path given, and the directory when the file itself exists
		// (so could be written in place, but not replaced).
		if keep && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("output %s: cannot create a file in %s to replace it with: %w", path, dirOf(target), osErr(err))
		}
		return nil, fmt.Errorf("output %s: %w", path, osErr(err))
	}
	if keep {
		if err := f.Chmod(perm); err != nil {
			f.Close()
			os.Remove(tmp)
			return nil, fmt.Errorf("output %s: %w", path, osErr(err))
		}
	}
	live.Lock()
	live.m[tmp] = false
	live.Unlock()
	return &File{name: path, target: target, tmp: tmp, f: f}, nil
}

// osErr is err without the *fs.PathError or *os.LinkError around it,
// whose operation and paths (perhaps the temporary file's) would repeat
// or contradict the path the message names.
func osErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// dirOf is the directory of path, "." for a bare name.
func dirOf(path string) string {
	if dir := filepath.Dir(path); dir != "" {
		return dir
	}
	return "."
}

// direct reports whether path lies where files are not replaced but
// written in place (devices, /proc/self/fd/N).
func direct(path string) bool {
	p := filepath.ToSlash(filepath.Clean(path))
	return strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/")
}

// createTemp creates ".BASE.tmp-RANDOM" next to target with mode perm
// (less the umask).
func createTemp(target string, perm fs.FileMode) (*os.File, string, error) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	if len(base) > 200 { // room for the dot and suffix within NAME_MAX
		base = base[:200]
	}
	for range 100 {
		name := filepath.Join(dir, "."+base+".tmp-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", errors.New("no unused temporary name")
}

// Name is the path the file was created with.
func (f *File) Name() string { return f.name }

// Target is the file Commit replaces: Name with symlinks resolved.
func (f *File) Target() string { return f.target }

// Direct reports whether the target is written in place (no Commit
// step: what is written is final).
func (f *File) Direct() bool { return f.tmp == "" }

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, fmt.Errorf("output %s: write after close", f.name)
	}
	return f.f.Write(p)
}

// Offset is the current length written, for Rewind.
func (f *File) Offset() int64 {
	if f.done || f.tmp == "" {
		return 0
	}
	off, err := f.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0
	}
	return off
}

// Rewind cuts the file back to off (an earlier Offset), dropping what
// was written since. Direct targets cannot be cut back; for them it does
// nothing.
func (f *File) Rewind(off int64) error {
	if f.done || f.tmp == "" {
		return nil
	}
	if err := f.f.Truncate(off); err != nil {
		return fmt.Errorf("output %s: %w", f.name, osErr(err))
	}
	if _, err := f.f.Seek(off, io.SeekStart); err != nil {
		return fmt.Errorf("output %s: %w", f.name, osErr(err))
	}
	return nil
}

// Commit makes what was written the content of the target: it syncs the
// temporary file and renames it over the target. On failure the
// temporary file is removed and the target left as it was.
func (f *File) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	if f.tmp == "" {
		if err := f.f.Close(); err != nil {
			return fmt.Errorf("output %s: %w", f.name, osErr(err))
		}
		return nil
	}
	defer forget(f.tmp)
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.tmp, f.target)
	}
	if err != nil {
		os.Remove(f.tmp)
		return fmt.Errorf("output %s: %w", f.name, osErr(err))
	}
	return nil
}

// Abort discards what was written: the temporary file is removed and the
// target left as it was. It does nothing after Commit or Abort.
func (f *File) Abort() error {
	if f.done {
		return nil
	}
	f.done = true
	err := f.f.Close()
	if f.tmp != "" {
		defer forget(f.tmp)
		if rerr := os.Remove(f.tmp); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = rerr
		}
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", f.name, osErr(err))
	}
	return nil
}

func forget(tmp string) {
	live.Lock()
	delete(live.m, tmp)
	live.Unlock()
}

// RemoveTemps removes the temporary file of every File of the process
// not yet committed or aborted: for a command killed by a signal, just
// before it exits.
func RemoveTemps() {
	live.Lock()
	defer live.Unlock()
	for _, cut := range live.cuts {
		cut()
	}
	live.cuts = nil
	for tmp, dir := range live.m {
		if dir {
			os.RemoveAll(tmp)
		} else {
			os.Remove(tmp)
		}
		delete(live.m, tmp)
	}
}

// TrackCut has RemoveTemps, which runs when the process is made to end
// at once, call cut until the returned func is called: for a stream on
// standard output, which cannot be removed, cut makes it unreadable
// rather than a shorter result that reads as complete.
func TrackCut(cut func()) (untrack func()) {
	live.Lock()
	live.cuts = append(live.cuts, cut)
	i := len(live.cuts) - 1
	live.Unlock()
	return func() {
		live.Lock()
		if i < len(live.cuts) {
			live.cuts[i] = func() {}
		}
		live.Unlock()
	}
}

// TrackTempDir has RemoveTemps remove the temporary directory dir (and
// everything in it) until the returned func is called, which it must be
// once dir has been renamed or removed.
func TrackTempDir(dir string) (untrack func()) {
	live.Lock()
	live.m[dir] = true
	live.Unlock()
	return func() { forget(dir) }
}
