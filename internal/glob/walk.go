package glob

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
)

// walker lists the entries below a fixed directory whose path relative
// to it matches pat.
type walker struct {
	pattern string
	pat     []string // the segments after the fixed prefix
	limit   int
	stop    func() error // nil, or asked before each directory is read
	stars   bool         // pat has a ** segment
	out     []Match
}

// child joins a directory as written and an entry name.
func child(dir, name string) string {
	switch {
	case dir == "":
		return name
	case dir[len(dir)-1] == '/':
		return dir + name
	}
	return dir + "/" + name
}

// walk reads dir (written as given; rel are its segments below the fixed
// prefix) and recurses into the subdirectories a match could lie under.
func (w *walker) walk(dir string, rel []string) error {
	if w.stop != nil {
		if err := w.stop(); err != nil {
			return err
		}
	}
	read := dir
	if read == "" {
		read = "."
	}
	entries, err := os.ReadDir(read)
	if err != nil {
		if len(rel) == 0 && errors.Is(err, fs.ErrNotExist) {
			return nil // no start directory: nothing matches
		}
		return fmt.Errorf("glob: pattern %q: %w", w.pattern, err)
	}
	for _, e := range entries { // os.ReadDir sorts by name
		segs := append(rel[:len(rel):len(rel)], e.Name())
		p := child(dir, e.Name())
		isDir := e.IsDir()
		isLink := e.Type()&fs.ModeSymlink != 0
		if isLink {
			if st, err := os.Stat(p); err == nil {
				isDir = st.IsDir()
			}
		}
		if matchSegs(w.pat, segs) && !(isDir && endsInStars(w.pat)) {
			if len(w.out) >= w.limit {
				return tooMany(w.pattern, w.limit)
			}
			w.out = append(w.out, newMatch(p, isDir))
		}
		// A symbolic link to a directory is walked into only by a pattern
		// without `**`: its depth is bounded by its segments, so a link
		// cycle cannot loop (partition directories are often links).
		if isDir && (!isLink || !w.stars) && canDescend(w.pat, segs) {
			if err := w.walk(p, segs); err != nil {
				return err
			}
		}
	}
	return nil
}

// endsInStars reports a pattern whose last segment is `**`, which
// matches files only.
func endsInStars(pat []string) bool { return len(pat) > 0 && pat[len(pat)-1] == "**" }

// matchSegs reports whether the path segments name match the pattern
// segments pat: each segment by path.Match, `**` by any number of
// segments (none included). The pattern has been checked, so path.Match
// reports no error.
func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			for i := 0; i < len(name); i++ {
				if matchSegs(pat, name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// canDescend reports whether some path below the directory dir (its
// segments) could match pat: dir matches a prefix of pat that leaves at
// least one segment, or reaches a `**`.
func canDescend(pat, dir []string) bool {
	for i, s := range pat {
		if s == "**" {
			return matchPrefix(pat[:i], dir)
		}
	}
	if len(dir) >= len(pat) {
		return false
	}
	return matchSegs(pat[:len(dir)], dir)
}

// matchPrefix reports whether the first len(pre) segments of dir match
// pre (dir may be longer: the rest lies under a `**`).
func matchPrefix(pre, dir []string) bool {
	if len(dir) < len(pre) {
		return matchSegs(pre[:len(dir)], dir)
	}
	return matchSegs(pre, dir[:len(pre)])
}
