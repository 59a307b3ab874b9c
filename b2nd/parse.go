package b2nd

import (
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// Frame is a parsed Blosc2 frame holding an N-d array. Everything in it
// has been checked: the layout agrees with the header sizes, and every
// stored chunk lies inside the data section.
type Frame struct {
	Layout
	Sparse    bool  // a sparse frame: chunks live in files of a directory
	Version   int64 // frame format version (0..3)
	Typesize  int64 // bytes per element
	ChunkSize int64 // decoded bytes per chunk (padded edge chunks included)
	BlockSize int64 // decoded bytes per block
	// Chunks locates every chunk, in row-major order of the chunk grid.
	Chunks []ChunkRef
	// Attrs holds every vlmetalayer, decoded from msgpack (see
	// reader.value for the Go types); empty when there are none.
	Attrs map[string]any
	// AttrNames lists the attribute names in the order the frame lists them.
	AttrNames []string
	// DimNames names the axes when the 'dim_names' attribute is a list of
	// ndim distinct strings; nil otherwise (the axes are then d0, d1, ...).
	DimNames []string

	data []byte // the whole frame, frame_len bytes
	dir  string // a sparse frame's directory
}

// Parse parses a contiguous frame held in data. decode decodes the Blosc2
// chunks the frame needs for itself (the index chunk of offsets and each
// attribute value); it is called with a dst of the chunk's declared size,
// which Parse has bounded first. The returned Frame refers to data (it
// does not copy it): keep data alive and unchanged while the Frame is used.
func Parse(data []byte, decode DecodeFunc) (*Frame, error) {
	h, data, err := parseHeader(data)
	if err != nil {
		return nil, err
	}
	if h.frameType != frameContiguous {
		return nil, fmt.Errorf("b2nd: a sparse frame's chunks.b2frame: open its directory: %w", array.ErrUnsupported)
	}
	return parseFrame(h, data, decode)
}

// parseFrame reads the metalayers, the index chunk and the trailer of a
// frame whose fixed header is h.
func parseFrame(h header, data []byte, decode DecodeFunc) (*Frame, error) {
	if decode == nil {
		return nil, fmt.Errorf("b2nd: no chunk decoder given")
	}
	meta, err := parseSection(data, minHeaderLen, h.headerLen, 0, "metalayers")
	if err != nil {
		return nil, err
	}
	name := "b2nd"
	content, ok := meta.contents[name]
	if !ok {
		name = "caterva"
		if content, ok = meta.contents[name]; !ok {
			return nil, fmt.Errorf("b2nd: frame has no 'b2nd' or 'caterva' metalayer (metalayers %q): %w", meta.names, array.ErrUnsupported)
		}
	}
	layout, err := parseLayout(name, content, h.typesize)
	if err != nil {
		return nil, err
	}
	nchunks, err := checkLayout(layout, h)
	if err != nil {
		return nil, err
	}
	f := &Frame{Layout: layout, Sparse: h.frameType == frameSparse, Version: h.version, Typesize: h.typesize,
		ChunkSize: h.chunksize, BlockSize: h.blocksize, data: data}
	trailerStart, err := f.parseTrailer(h, decode)
	if err != nil {
		return nil, err
	}
	if !f.Sparse && h.cbytes > trailerStart-h.headerLen {
		return nil, fmt.Errorf("b2nd: cbytes %d runs past the trailer at %d (header_len %d): %w", h.cbytes, trailerStart, h.headerLen, array.ErrCorrupt)
	}
	dataEnd := h.headerLen + h.cbytes
	if f.Sparse {
		dataEnd = h.headerLen // the chunks are files; the index follows the header
	}
	if dataEnd > trailerStart {
		return nil, fmt.Errorf("b2nd: data section [%d, %d) overlaps the trailer at %d: %w", h.headerLen, dataEnd, trailerStart, array.ErrCorrupt)
	}
	if err := f.readIndex(h, nchunks, dataEnd, trailerStart, decode); err != nil {
		return nil, err
	}
	return f, nil
}

// trailerTail is the fixed end of every frame: `ce` uint32 trailer_len,
// `d8` fixext16, a fingerprint type and 16 fingerprint bytes.
const trailerTail = 23

// parseTrailer reads the trailer's vlmetalayers into f.Attrs and returns
// where the trailer starts.
func (f *Frame) parseTrailer(h header, decode DecodeFunc) (int64, error) {
	end := h.frameLen
	if end-h.headerLen < trailerTail {
		return 0, fmt.Errorf("b2nd: frame_len %d leaves no room for a trailer after header_len %d: %w", end, h.headerLen, array.ErrTruncated)
	}
	r := &reader{b: f.data[:end], pos: int(end - trailerTail), ctx: "trailer"}
	if err := r.marker(0xce, "trailer_len"); err != nil {
		return 0, err
	}
	tl, _ := r.uint(4)
	if err := r.marker(0xd8, "fingerprint"); err != nil {
		return 0, err
	}
	start := end - int64(tl)
	if tl < trailerTail || start < h.headerLen {
		return 0, fmt.Errorf("b2nd: trailer_len %d outside the frame (header ends at %d, frame at %d): %w", tl, h.headerLen, end, array.ErrCorrupt)
	}
	r = &reader{b: f.data[:end-trailerTail], pos: int(start), ctx: "trailer"}
	if err := r.marker(0x94, "trailer"); err != nil {
		return 0, err
	}
	if _, err := r.byte1(); err != nil { // trailer version
		return 0, err
	}
	s, err := parseSection(f.data, int64(r.pos), end-trailerTail, start, "vlmetalayers")
	if err != nil {
		return 0, err
	}
	f.Attrs = map[string]any{}
	budget := int64(maxAttrBytes) // shared by all attributes: many small lies add up
	for _, name := range s.names {
		raw, err := decodeSmall(s.contents[name], budget, decode)
		if err != nil {
			return 0, fmt.Errorf("b2nd: attribute %q: %w", name, err)
		}
		budget -= int64(len(raw))
		vr := &reader{b: raw, ctx: "attribute " + name}
		v, err := vr.value(0)
		if err != nil {
			return 0, err
		}
		f.Attrs[name] = v
		f.AttrNames = append(f.AttrNames, name)
	}
	f.DimNames = dimNames(f.Attrs["dim_names"], len(f.Shape))
	return start, nil
}

// maxAttrBytes bounds the decoded size of all attributes together, so
// lying chunk headers (a few bytes each can claim megabytes) cannot make
// Parse allocate or fill memory without limit.
const maxAttrBytes = 64 << 20

// decodeSmall decodes the Blosc2 chunk src (a frame-internal chunk: an
// attribute or the index) after checking its header and that its decoded
// size is at most limit bytes.
func decodeSmall(src []byte, limit int64, decode DecodeFunc) ([]byte, error) {
	ch, err := readChunkHeader(src, int64(len(src)))
	if err != nil {
		return nil, err
	}
	if ch.nbytes > limit {
		return nil, fmt.Errorf("chunk decodes to %d bytes, above the limit of %d: %w", ch.nbytes, limit, array.ErrTooLarge)
	}
	dst := make([]byte, ch.nbytes)
	if err := decode(dst, src[:ch.cbytes]); err != nil {
		return nil, fmt.Errorf("decoding a chunk: %w", err)
	}
	return dst, nil
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
