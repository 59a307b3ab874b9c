package vtab

import (
	"fmt"
	"strings"

	"github.com/tetsql/tetsql/internal/glob"
)

// manyFile is one file of a many-file table, as listed (never opened by
// the listing): its path as matched and its hive values.
type manyFile struct {
	path string
	hive []string // per hive key of the list, the value ("" with has false: none)
	has  []bool
}

// manyList is the files a glob matches and the hive keys of their paths.
type manyList struct {
	files []manyFile
	keys  []string // hive keys, in the order first met (path order within a path)
}

// listMany expands pattern into the files of a many-file table: regular
// files, and directories a format recognises as one file (a Blosc2
// sparse frame, whose own chunk files are then not listed). Other
// directories are not listed. Hive keys that differ only in ASCII case
// are one column (SQL names ignore case), spelt as first met.
func listMany(sess *Session, pattern string) (manyList, error) {
	var l manyList
	ms, err := glob.ExpandStop(pattern, MaxManyFiles, sess.Interrupted)
	if err != nil {
		return l, fmt.Errorf("tet: %s: %w", pattern, err)
	}
	col := map[string]int{}
	var frames []string // matched format directories
	for _, m := range ms {
		inside := false
		for _, d := range frames {
			if strings.HasPrefix(m.Path, d+"/") {
				inside = true
				break
			}
		}
		if inside {
			continue
		}
		if m.IsDir {
			if _, err := sess.Registry.Sniff(m.Path); err != nil {
				continue
			}
			frames = append(frames, m.Path)
		}
		f := manyFile{path: m.Path}
		for _, kv := range m.Hive {
			k := asciiLower(kv.Key)
			i, ok := col[k]
			if !ok {
				i = len(l.keys)
				col[k] = i
				l.keys = append(l.keys, kv.Key)
			}
			for len(f.hive) <= i {
				f.hive, f.has = append(f.hive, ""), append(f.has, false)
			}
			if !f.has[i] { // a key given twice in one path: the first segment wins
				f.hive[i], f.has[i] = kv.Value, true
			}
		}
		l.files = append(l.files, f)
	}
	for i := range l.files {
		for len(l.files[i].hive) < len(l.keys) {
			l.files[i].hive, l.files[i].has = append(l.files[i].hive, ""), append(l.files[i].has, false)
		}
	}
	return l, nil
}
