package b2nd

import (
	"fmt"
	"github.com/tetsql/tetsql/internal/codec/blosc"

	"github.com/tetsql/tetsql/array"
)

// Verify checks the frame (see array.Verifier). Open has already checked
// the structure; a quick check adds that the file is still the one opened
// and, for a sparse frame, that every chunk file is still there with the
// size it had. A deep check also decodes every chunk (none larger than
// maxChunkBytes, when given). Uninitialised chunks are a warning: their
// values read as zeros but were never written.
func (s *Source) Verify(deep bool, maxChunkBytes int64) ([]array.Finding, error) {
	if err := s.CheckUnchanged(); err != nil {
		return nil, err
	}
	f, a := s.frame, s.arr
	var out []array.Finding
	add := func(sev string, id int, msg string) {
		coords := make([]int64, a.info.Rank())
		a.info.ChunkCoords(int64(id), coords)
		out = append(out, array.Finding{Severity: sev, Array: a.info.Name, Chunk: coords, Message: msg})
	}
	var buf []byte
	for i, c := range f.Chunks {
		switch {
		case c.Kind == blosc.ChunkUninit:
			add("warning", i, "uninitialised chunk: its values read as zeros but were never written")
			continue
		case c.Kind != blosc.ChunkStored:
			continue
		case f.Sparse && !deep:
			if size, err := f.StatChunk(i); err != nil {
				add("error", i, err.Error())
			} else if size != c.Size {
				add("error", i, fmt.Sprintf("chunk file holds %d bytes, %d when opened", size, c.Size))
			}
			continue
		case !deep:
			continue
		case maxChunkBytes > 0 && f.ChunkSize > maxChunkBytes:
			add("error", i, fmt.Sprintf("chunk decodes to %d bytes, above the limit of %d", f.ChunkSize, maxChunkBytes))
			continue
		}
		var err error
		if buf, err = a.ReadChunk(int64(i), buf); err != nil {
			add("error", i, err.Error())
		}
	}
	return out, nil
}
