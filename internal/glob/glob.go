// Package glob lists the files a glob pattern names: `*`, `?` and
// `[...]` within one path segment (path.Match semantics) and `**` for any
// number of directories, including none. It is the first step of opening
// many files as one table: the walk is bounded, deterministic (sorted),
// and follows a symbolic link into a directory only for a pattern
// without `**` (whose depth its segments bound), so a link cycle cannot
// make it loop.
package glob

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
)

// ErrTooMany is matched (errors.Is) by the error of a pattern that
// matches more files than the limit.
var ErrTooMany = errors.New("glob: too many matches")

// maxDoubleStars bounds the `**` segments of one pattern: each adds a
// factor of the tree's depth to the matching work.
const maxDoubleStars = 4

// KV is one hive path segment `key=value`.
type KV struct {
	Key, Value string
}

// Match is one path a pattern matched.
type Match struct {
	// Path is the matched path, written from the pattern's fixed prefix
	// as given (not made absolute or cleaned) followed by the walked
	// names, joined with "/".
	Path string
	// IsDir reports a matched directory (a format whose files are
	// directories, such as a Blosc2 sparse frame, needs it); a trailing
	// `**` matches files only.
	IsDir bool
	// Hive holds the directory segments of Path of the form key=value
	// (non-empty key; split at the first '='), in path order; the last
	// segment, the file's own name, never counts.
	Hive []KV
}

// HasMagic reports whether pattern holds a glob metacharacter.
func HasMagic(pattern string) bool { return strings.ContainsAny(pattern, `*?[\`) }

// split returns the segments of pattern: empty segments (from "a//b" or a
// trailing "/") are dropped, except a leading one, which marks an
// absolute pattern.
func split(pattern string) []string {
	raw := strings.Split(pattern, "/")
	out := raw[:0:0]
	for i, s := range raw {
		if s != "" || i == 0 {
			out = append(out, s)
		}
	}
	return out
}

// fixedLen is how many leading segments of segs hold no magic; the last
// segment never counts (it names the entries, not a directory).
func fixedLen(segs []string) int {
	n := 0
	for n < len(segs)-1 && !HasMagic(segs[n]) {
		n++
	}
	return n
}

// joinFixed writes the fixed segments back as a path ("" for none).
func joinFixed(segs []string) string {
	if len(segs) == 1 && segs[0] == "" {
		return "/"
	}
	return strings.Join(segs, "/")
}

// Fixed returns the directory a pattern's walk starts from: its leading
// segments without magic characters ("." when there are none, "/" for a
// pattern under the root). For a pattern without magic it is the
// directory of the named file.
func Fixed(pattern string) string {
	segs := split(pattern)
	if d := joinFixed(segs[:fixedLen(segs)]); d != "" {
		return d
	}
	return "."
}

// check validates every segment: path.Match's syntax, and `**` only as a
// whole segment, at most maxDoubleStars times.
func check(pattern string, segs []string) error {
	stars := 0
	for _, s := range segs {
		if s == "**" {
			if stars++; stars > maxDoubleStars {
				return fmt.Errorf("glob: pattern %q: more than %d `**` segments", pattern, maxDoubleStars)
			}
			continue
		}
		if strings.Contains(s, "**") {
			return fmt.Errorf("glob: pattern %q: `**` must be a whole path segment (%q)", pattern, s)
		}
		if _, err := path.Match(s, ""); err != nil {
			return fmt.Errorf("glob: pattern %q: segment %q: %w", pattern, s, err)
		}
	}
	return nil
}

// Expand returns the paths matching pattern (segments separated by "/"),
// sorted by Path. The walk starts at Fixed(pattern) and reads only
// directories below it; symbolic links to directories are listed as
// matches when the last segment names them, and walked into only by a
// pattern without `**`. A
// pattern without magic matches itself when it exists. More than limit
// matches is an error (ErrTooMany) naming the limit; a missing start
// directory matches nothing.
func Expand(pattern string, limit int) ([]Match, error) {
	return ExpandStop(pattern, limit, nil)
}

// ExpandStop is Expand that asks stop before reading each directory and
// ends the walk with its error: a pattern such as /**/x.tet walks a
// whole file system, which a statement's cancel or timeout must be able
// to end.
func ExpandStop(pattern string, limit int, stop func() error) ([]Match, error) {
	segs := split(pattern)
	if err := check(pattern, segs); err != nil {
		return nil, err
	}
	if !HasMagic(pattern) {
		st, err := os.Stat(pattern)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, nil
			}
			return nil, fmt.Errorf("glob: %w", err)
		}
		if limit < 1 {
			return nil, tooMany(pattern, limit)
		}
		return []Match{newMatch(pattern, st.IsDir())}, nil
	}
	k := fixedLen(segs)
	w := &walker{pattern: pattern, pat: segs[k:], limit: limit, stop: stop, stars: slices.Contains(segs[k:], "**")}
	if err := w.walk(joinFixed(segs[:k]), nil); err != nil {
		return nil, err
	}
	sort.Slice(w.out, func(i, j int) bool { return w.out[i].Path < w.out[j].Path })
	return w.out, nil
}

func tooMany(pattern string, limit int) error {
	return fmt.Errorf("%w: pattern %q matches more than %d files", ErrTooMany, pattern, limit)
}

// newMatch makes the Match of p, with its hive segments.
func newMatch(p string, dir bool) Match {
	m := Match{Path: p, IsDir: dir}
	segs := strings.Split(p, "/")
	for _, s := range segs[:len(segs)-1] {
		if k, v, ok := strings.Cut(s, "="); ok && k != "" {
			m.Hive = append(m.Hive, KV{Key: k, Value: v})
		}
	}
	return m
}
