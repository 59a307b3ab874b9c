package vtab

import "fmt"

// ManyFiles returns the paths of the files pattern matches, as a
// many-file table lists them (sorted; a Blosc2 sparse frame's directory
// once, not its chunk files), without opening any. A program uses it to
// know the inputs of a glob, e.g. to refuse an output path that is one
// of them.
func ManyFiles(sess *Session, pattern string) ([]string, error) {
	if sess == nil || sess.Registry == nil {
		return nil, fmt.Errorf("tet: %s: no session to list files with", pattern)
	}
	l, err := listMany(sess, pattern)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(l.files))
	for i, f := range l.files {
		out[i] = f.path
	}
	return out, nil
}
