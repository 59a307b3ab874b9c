package b2nd

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/codec/blosc"
)

// Frame is a parsed Blosc2 frame holding an N-d array: the frame as the
// codec package parses it (sizes, chunk locations, attributes in VLMeta)
// and the array's Layout from its N-d metalayer. Everything in it has
// been checked: the layout agrees with the header sizes, and every stored
// chunk lies inside the data and decodes to one whole chunk.
type Frame struct {
	*blosc.Frame
	Layout
	// DimNames names the axes when the 'dim_names' attribute is a list of
	// ndim distinct strings; nil otherwise (the axes are then d0, d1, ...).
	DimNames []string
}

// Parse parses a contiguous frame held in data. The returned Frame refers
// to data (it does not copy it): keep data alive and unchanged while the
// Frame is used.
func Parse(data []byte) (*Frame, error) {
	bf, err := blosc.ParseFrame(data)
	if err != nil {
		return nil, wrapCodec(err)
	}
	return newFrame(bf)
}

// ParseDir parses a sparse frame: a directory holding chunks.b2frame and
// one file per stored chunk (see blosc.ParseSparseFrame). Each chunk
// file's header is read and checked against the frame; a missing file is
// an error. [blosc.Frame.ReadChunk] reads a chunk's bytes.
func ParseDir(dir string) (*Frame, error) {
	bf, err := blosc.ParseSparseDir(dir)
	if err != nil {
		return nil, wrapCodec(err)
	}
	return newFrame(bf)
}

// parseSparse parses data, the contents of dir's chunks.b2frame, and
// checks the chunk files it names.
func parseSparse(dir string, data []byte) (*Frame, error) {
	bf, err := blosc.ParseSparseFrame(dir, data)
	if err != nil {
		return nil, wrapCodec(err)
	}
	return newFrame(bf)
}

// newFrame reads the N-d metalayer of a parsed frame and checks it
// against the frame's sizes.
func newFrame(bf *blosc.Frame) (*Frame, error) {
	name := "b2nd"
	content, ok := bf.Metalayers[name]
	if !ok {
		name = "caterva"
		if content, ok = bf.Metalayers[name]; !ok {
			return nil, fmt.Errorf("b2nd: frame has no 'b2nd' or 'caterva' metalayer (metalayers %q): %w", bf.MetalayerNames, array.ErrUnsupported)
		}
	}
	layout, err := parseLayout(name, content, bf.Typesize)
	if err != nil {
		return nil, wrapCodec(err)
	}
	if err := checkLayout(layout, bf); err != nil {
		return nil, err
	}
	return &Frame{Frame: bf, Layout: layout, DimNames: dimNames(bf.VLMeta["dim_names"], len(layout.Shape))}, nil
}

// dimNames returns v as axis names when it is a list of ndim distinct
// non-empty strings, else nil.
func dimNames(v any, ndim int) []string {
	list, ok := v.([]any)
	if !ok || len(list) != ndim || ndim == 0 {
		return nil
	}
	seen := map[string]bool{}
	out := make([]string, ndim)
	for i, x := range list {
		s, ok := x.(string)
		if !ok || s == "" || seen[s] {
			return nil
		}
		seen[s], out[i] = true, s
	}
	return out
}
