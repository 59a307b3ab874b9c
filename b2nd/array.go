package b2nd

import (
	"fmt"
	"sync"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/codec/blosc"
)

// Array is a frame's N-d array (see array.Array).
type Array struct {
	src  *Source
	info array.Info
	geo  geometry
	// kinds names how each chunk is stored (an index into kindNames of
	// chunkKinds), read once at Open from the chunk headers.
	kinds []uint8
	// scratch holds decoded chunks (ChunkSize bytes) on their way to the
	// caller's buffer when blocks must be re-ordered; blocks holds two
	// blocks, for reads of a few blocks (box.go).
	scratch, blocks sync.Pool
}

func newArray(s *Source, name string) (*Array, error) {
	f := s.frame
	in, err := f.Info(name)
	if err != nil {
		return nil, err
	}
	a := &Array{src: s, info: in, geo: newGeometry(&f.Layout, f.Typesize)}
	a.scratch.New = func() any { b := make([]byte, f.ChunkSize); return &b }
	a.blocks.New = func() any { b := make([]byte, 2*a.geo.blockBytes); return &b }
	if err := a.readKinds(); err != nil {
		return nil, err
	}
	return a, nil
}

// chunkKinds are the names ChunkInfo.Codec takes; the first four are
// indexed by blosc.ChunkKind.
var chunkKinds = [...]string{"blosc2", "blosc2/zeros", "blosc2/nan", "blosc2/uninit",
	"blosc2/value", "blosc2/memcpy", "blosc2/blosclz", "blosc2/lz4", "blosc2/zlib", "blosc2/zstd"}

// kindIndex maps a chunk header's Kind to its index in chunkKinds.
var kindIndex = func() map[string]uint8 {
	m := map[string]uint8{}
	for i, n := range chunkKinds {
		m[n[len("blosc2"):]] = uint8(i)
	}
	return m
}()

// readKinds records how every chunk is stored: special chunks from the
// index; stored chunks of a contiguous frame from their headers (the
// codec, memcpy or a run of one value); those of a sparse frame stay
// "blosc2", as their headers are in files not read at Open.
func (a *Array) readKinds() error {
	f := a.src.frame
	a.kinds = make([]uint8, len(f.Chunks))
	var err error
	gerr := a.src.mf.Guard(func() {
		for i, c := range f.Chunks {
			if c.Kind != blosc.ChunkStored {
				a.kinds[i] = uint8(c.Kind)
				continue
			}
			if f.Sparse {
				continue
			}
			src, herr := f.ChunkBytes(i)
			var h blosc.Header
			if herr == nil {
				h, herr = blosc.ParseHeader(src)
			}
			if herr != nil {
				err = fmt.Errorf("b2nd: chunk %d: %w", i, wrapCodec(herr))
				return
			}
			a.kinds[i] = kindIndex["/"+h.Kind()] // 0, "blosc2", for a codec unknown here
		}
	})
	if gerr != nil {
		return gerr
	}
	return err
}
