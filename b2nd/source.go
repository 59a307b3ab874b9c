package b2nd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/codec/blosc"
	"github.com/tetsql/tetsql/internal/mapfile"
)

// Format opens Blosc2 NDim and Caterva frames as array sources: a
// contiguous frame is one file, recognised by its first bytes whatever
// its name; a sparse frame is a directory holding chunks.b2frame (see
// [Format.SniffDir]). A source holds one array, named after the file's
// stem reduced to [A-Za-z0-9_].
var Format = format{}

type format struct{}

// Name is the format's short name.
func (format) Name() string { return "b2nd" }

// Sniff reports whether head starts a Blosc2 frame.
func (format) Sniff(head []byte) bool { return blosc.IsFrame(head) }

// SniffDir reports whether dir is a sparse frame: it holds a regular file
// chunks.b2frame. The name is the sparse layout's mark; the file's bytes
// are left to Open, so that a damaged one is reported as such.
func (format) SniffDir(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, blosc.SparseFrameFile))
	return err == nil && st.Mode().IsRegular()
}

// Open opens the contiguous frame file or sparse frame directory at
// path. Everything structural is checked here (see [Parse]); chunks are
// decoded on ReadChunk, straight from the mapped file. The format's
// default chunk limit (Options.MaxChunkBytes 0) is none beyond the
// frame's own: a chunk's size is a 31-bit header field checked against
// the metalayer at Open.
func (format) Open(path string, o array.Options) (array.Source, error) {
	return Open(path, o)
}

// Source is an opened frame. Its methods are safe for concurrent use.
type Source struct {
	// Backing gives Close, Acquire, Release, CheckUnchanged and
	// EvictRange over the mapping. For a sparse frame it watches
	// chunks.b2frame; a chunk file replaced under a scan is checked when
	// it is read.
	mapfile.Backing
	path  string
	mf    *mapfile.File // the mapped frame file (chunks.b2frame for a sparse frame)
	frame *Frame
	arr   *Array
	size  int64
	limit int64 // Options.MaxChunkBytes, 0 for none
}

// Open opens path as a frame; see Format.
func Open(path string, o array.Options) (*Source, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("b2nd: %w", err)
	}
	file := path
	if st.IsDir() {
		file = filepath.Join(path, blosc.SparseFrameFile)
	}
	mf, err := mapfile.Open(file)
	if err != nil {
		return nil, fmt.Errorf("b2nd: %w", err)
	}
	s := &Source{Backing: mapfile.BackedBy(mf), path: path, mf: mf, limit: o.MaxChunkBytes, size: int64(len(mf.Data()))}
	if err := s.parse(st.IsDir()); err != nil {
		mf.Close()
		if st.IsDir() {
			return nil, err // a sparse frame's errors name its directory
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// parse parses the mapping (under Guard: the file may shrink meanwhile)
// and builds the array.
func (s *Source) parse(sparse bool) error {
	var err error
	gerr := s.mf.Guard(func() {
		if sparse {
			s.frame, err = parseSparse(s.path, s.mf.Data())
		} else {
			s.frame, err = Parse(s.mf.Data())
		}
		if err == nil {
			s.size = s.frame.Len()
			seen := map[int64]bool{} // a chunk file may serve several chunks
			for _, c := range s.frame.Chunks {
				if sparse && c.Kind == blosc.ChunkStored && !seen[c.Offset] {
					seen[c.Offset] = true
					s.size += c.Size // the chunk files
				}
			}
		}
	})
	if gerr != nil {
		return gerr
	}
	if err != nil {
		return err
	}
	s.arr, err = newArray(s, datasetName(s.path))
	return err
}

// datasetName is the file's stem (its name without the last extension)
// reduced to [A-Za-z0-9_]; "array" when nothing is left.
func datasetName(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // "." names the directory it is
	}
	base := filepath.Base(path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	name := strings.Map(func(r rune) rune {
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, stem)
	if strings.Trim(name, "_") == "" {
		return "array"
	}
	return name
}

// Arrays is the frame's one array.
func (s *Source) Arrays() []array.Array { return []array.Array{s.arr} }

// Attrs is nil: the frame's attributes (vlmeta) are the array's.
func (s *Source) Attrs() map[string]string { return nil }

// Describe says what the source is (see array.Describer).
func (s *Source) Describe() array.Description {
	return array.Description{Format: "b2nd", Size: s.size, LayoutVersion: s.frame.Version, Footer: "ok"}
}
