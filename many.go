package tetsql

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tetsql/tetsql/internal/glob"
	"github.com/tetsql/tetsql/vtab"
)

// IsGlob reports whether the spec names many files through a glob
// pattern: its path holds a glob metacharacter (* ? [ or \) and is not
// the name of an existing file (a file named "a[1].tet" stays that
// file; "a\[1\].tet" is the pattern matching it).
func (f FileSpec) IsGlob() bool { return isGlob(f.Path) }

// SplitAlias reads one file argument of the DSN, the shell or .open:
// "ALIAS=PATH" names the schema, a plain PATH (or glob) does not. A path
// whose first segment is itself key=value (a hive directory:
// year=2024/…) is a path, not ALIAS=PATH: when the whole argument names
// something that exists (for a glob, matches something), the whole is
// the path.
func SplitAlias(arg string) FileSpec {
	alias, path, ok := strings.Cut(arg, "=")
	if !ok || !validAlias.MatchString(alias) || path == "" {
		return FileSpec{Path: arg}
	}
	if present(arg) {
		return FileSpec{Path: arg}
	}
	return FileSpec{Alias: alias, Path: path}
}

// present reports whether path exists; for a glob, whether it matches
// anything.
func present(path string) bool {
	if isGlob(path) {
		ms, err := glob.Expand(path, 1)
		return len(ms) > 0 || errors.Is(err, glob.ErrTooMany)
	}
	_, err := os.Stat(path)
	return err == nil
}

func isGlob(path string) bool {
	if !glob.HasMagic(path) {
		return false
	}
	_, err := os.Stat(path)
	return err != nil
}

// GlobAlias derives a schema name from a glob pattern: the base name of
// the directory its walk starts from (glob.Fixed: the leading segments
// without metacharacters), reduced to letters, digits and _ like
// DefaultAlias does with a file name, but with no extension removed (a
// directory's dots are part of its name). A pattern with no fixed
// directory ("*.tet", "**/*.tet") is named after the working directory,
// like DefaultAlias("."); one under the root alone ("/*.tet") is "root".
//
//	era5/**/*.tet            era5
//	/data/era5.v2/*/*.tet    era5_v2
//	/data/2024/*.tet         t_2024
func GlobAlias(pattern string) string {
	dir := glob.Fixed(pattern)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // "." and ".." name the directories they are
	}
	base := filepath.Base(dir)
	if base == string(filepath.Separator) {
		return "root"
	}
	return reduceName(base)
}

// reduceName makes a schema name of s: characters other than letters,
// digits and _ become _, a leading digit gets "t_", "" is "t".
func reduceName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	name := b.String()
	if name == "" {
		name = "t"
	}
	if name[0] >= '0' && name[0] <= '9' {
		name = "t_" + name
	}
	return name
}

// manyDatasets lists the files pattern matches and the dataset names
// they hold (vtab.ManyDatasets) through sess, whose current call ctx
// bounds the walk; a pattern matching no file, or only files without a
// dataset (all skipped, with skip), is an error naming it.
func manyDatasets(ctx context.Context, sess *vtab.Session, pattern string, skip bool) ([]string, error) {
	sess.Enter(vtab.NewCall(ctx))
	defer sess.Enter(nil)
	names, n, err := vtab.ManyDatasets(sess, pattern, skip)
	switch {
	case err != nil:
		return nil, fmt.Errorf("tetsql: %w", err)
	case n == 0:
		return nil, fmt.Errorf("tetsql: no file matches %s (%w)", pattern, fs.ErrNotExist)
	case len(names) == 0:
		return nil, fmt.Errorf("tetsql: %s: none of the %d files it matches holds a dataset that can be read", pattern, n)
	}
	return names, nil
}

// maxWarnLines bounds the distinct warnings a connector remembers to
// deliver each once; past it, new ones are delivered every time.
const maxWarnLines = 4096

// onceWarn returns the connector's warning sink: warn (nil: a
// "tetsql: warning: ..." line on standard error), called once per
// distinct line. Every pooled connection sets up the same tables, and
// every scan of a glob skips the same unreadable files: without this a
// file would be reported again for each.
func onceWarn(warn func(string)) func(string) {
	if warn == nil {
		warn = func(msg string) { fmt.Fprintln(os.Stderr, "tetsql: warning: "+msg) }
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	return func(msg string) {
		mu.Lock()
		if seen[msg] {
			mu.Unlock()
			return
		}
		if len(seen) < maxWarnLines {
			seen[msg] = true
		}
		mu.Unlock()
		warn(msg)
	}
}

// GlobFiles returns the files pattern matches, as a many-file schema
// lists them (see vtab.ManyFiles), without opening any. The shell uses
// it to refuse an output path that is one of its inputs.
func GlobFiles(pattern string) ([]string, error) {
	return vtab.ManyFiles(vtab.NewSession(defaultDriver.reg), pattern)
}

// globs discovers the datasets of the connector's glob specs that have
// none yet (found[i] nil), through a session of its own: once per
// connector, not per connection (c.mu held).
func (c *Connector) globs(ctx context.Context) error {
	if c.found == nil {
		c.found = make([][]string, len(c.cfg.Files))
	}
	for i, f := range c.cfg.Files {
		if !c.glob[i] || c.found[i] != nil {
			continue
		}
		sess := vtab.NewSession(c.reg)
		sess.Warn = c.warn
		names, err := manyDatasets(ctx, sess, f.Path, c.cfg.OnErrorSkip)
		if err != nil {
			return err
		}
		c.found[i] = names
	}
	return nil
}

// attachGlob attaches the files pattern matches as schema alias on this
// connection only (the shell's .open GLOB); see Attach.
func (c *Conn) attachGlob(ctx context.Context, alias, pattern string) error {
	if alias == "" {
		alias = GlobAlias(pattern)
	}
	if !validAlias.MatchString(alias) {
		return fmt.Errorf("tetsql: alias %q: use letters, digits and _", alias)
	}
	c.enter(ctx)
	names, err := manyDatasets(ctx, c.session, pattern, c.onErrorSkip)
	if err != nil {
		return err
	}
	err = c.trust(func() error {
		c.allowAttach()
		return c.setup(ctx, alias, pattern, vtab.ManySetupSQL(alias, pattern, names, c.onErrorSkip))
	})
	if err != nil {
		return err
	}
	c.attached++
	if c.snap != nil {
		return c.takeSnapshot(ctx)
	}
	return nil
}
