package blosc

import (
	"fmt"
)

// Frame is a parsed Blosc2 frame: a super-chunk of chunks that decode, in
// order, to NBytes bytes. Everything in it has been checked: the header
// sizes agree with the index, every stored chunk lies inside the data
// section and decodes to its share of NBytes with the frame's typesize.
// What the chunks mean (an N-d array, a flat buffer) is up to the
// metalayers and the caller.
type Frame struct {
	Sparse    bool  // a sparse frame: chunks live in files of a directory
	Version   int64 // frame format version (0..3)
	Typesize  int64 // bytes per element
	ChunkSize int64 // decoded bytes per chunk; the last may be shorter (ChunkLen)
	BlockSize int64 // decoded bytes per block, as the header says
	NBytes    int64 // decoded bytes of all chunks together
	CBytes    int64 // stored bytes of all chunks together
	// Metalayers holds the raw (msgpack) content of every metalayer of the
	// header, a view of the frame; MetalayerNames lists their names in
	// the order the frame does.
	Metalayers     map[string][]byte
	MetalayerNames []string
	// VLMeta holds every variable-length metalayer of the trailer (the
	// user attributes), decoded from msgpack (see MsgReader.Value for the
	// Go types); VLMetaNames lists their names in the frame's order.
	VLMeta      map[string]any
	VLMetaNames []string
	// Chunks locates every chunk, in order.
	Chunks []ChunkRef

	data []byte // the whole frame, frame_len bytes
	dir  string // a sparse frame's directory
}

// ParseFrame parses a contiguous frame held in data. The returned Frame
// refers to data (it does not copy it): keep data alive and unchanged
// while the Frame is used. Malformed input is an error wrapping
// ErrCorrupt or ErrTruncated, sizes above this package's limits wrap
// ErrTooLarge, and valid content it does not handle (variable-length
// chunks, 32-bit offsets, other frame versions) wraps ErrUnsupported.
func ParseFrame(data []byte) (*Frame, error) {
	h, data, err := parseFrameHeader(data)
	if err != nil {
		return nil, err
	}
	if h.frameType != frameContiguous {
		return nil, fmt.Errorf("blosc: a sparse frame's %s: open its directory: %w", SparseFrameFile, ErrUnsupported)
	}
	return parseFrame(h, data)
}

// parseFrame reads the metalayers, the trailer and the index chunk of a
// frame whose fixed header is h.
func parseFrame(h frameHeader, data []byte) (*Frame, error) {
	meta, err := parseSection(data, minHeaderLen, h.headerLen, 0, "metalayers")
	if err != nil {
		return nil, err
	}
	f := &Frame{Sparse: h.frameType == frameSparse, Version: h.version, Typesize: h.typesize,
		ChunkSize: h.chunksize, BlockSize: h.blocksize, NBytes: h.nbytes, CBytes: h.cbytes,
		Metalayers: meta.contents, MetalayerNames: meta.names, data: data}
	trailerStart, err := f.parseTrailer(h)
	if err != nil {
		return nil, err
	}
	if !f.Sparse && h.cbytes > trailerStart-h.headerLen {
		return nil, fmt.Errorf("blosc: cbytes %d runs past the trailer at %d (header_len %d): %w", h.cbytes, trailerStart, h.headerLen, ErrCorrupt)
	}
	dataEnd := h.headerLen + h.cbytes
	if f.Sparse {
		dataEnd = h.headerLen // the chunks are files; the index follows the header
	}
	if dataEnd > trailerStart {
		return nil, fmt.Errorf("blosc: data section [%d, %d) overlaps the trailer at %d: %w", h.headerLen, dataEnd, trailerStart, ErrCorrupt)
	}
	if err := f.readIndex(h, dataEnd, trailerStart); err != nil {
		return nil, err
	}
	return f, nil
}

// Len is the frame's length in bytes (its frame_len; for a sparse frame,
// that of chunks.b2frame alone).
func (f *Frame) Len() int64 { return int64(len(f.data)) }

// trailerTail is the fixed end of every frame: `ce` uint32 trailer_len,
// `d8` fixext16, a fingerprint type and 16 fingerprint bytes.
const trailerTail = 23

// parseTrailer reads the trailer's vlmetalayers into f.VLMeta and returns
// where the trailer starts.
func (f *Frame) parseTrailer(h frameHeader) (int64, error) {
	end := h.frameLen
	if end-h.headerLen < trailerTail {
		return 0, fmt.Errorf("blosc: frame_len %d leaves no room for a trailer after header_len %d: %w", end, h.headerLen, ErrTruncated)
	}
	r := &MsgReader{b: f.data[:end], pos: int(end - trailerTail), ctx: "trailer"}
	if err := r.Marker(0xce, "trailer_len"); err != nil {
		return 0, err
	}
	tl, _ := r.uint(4)
	if err := r.Marker(0xd8, "fingerprint"); err != nil {
		return 0, err
	}
	start := end - int64(tl)
	if tl < trailerTail || start < h.headerLen {
		return 0, fmt.Errorf("blosc: trailer_len %d outside the frame (header ends at %d, frame at %d): %w", tl, h.headerLen, end, ErrCorrupt)
	}
	r = &MsgReader{b: f.data[:end-trailerTail], pos: int(start), ctx: "trailer"}
	if err := r.Marker(0x94, "trailer"); err != nil {
		return 0, err
	}
	if _, err := r.byte1(); err != nil { // trailer version
		return 0, err
	}
	s, err := parseSection(f.data, int64(r.pos), end-trailerTail, start, "vlmetalayers")
	if err != nil {
		return 0, err
	}
	f.VLMeta = map[string]any{}
	budget := int64(maxAttrBytes) // shared by all attributes: many small lies add up
	values := 0                   // values decoded so far (MaxMsgValues in all)
	for _, name := range s.names {
		raw, err := decodeSmall(s.contents[name], budget)
		if err != nil {
			return 0, fmt.Errorf("blosc: attribute %q: %w", name, err)
		}
		budget -= int64(len(raw))
		vr := NewMsgReader(raw, "attribute "+name)
		vr.values = values // the value count is shared by all attributes too
		v, err := vr.Value()
		if err != nil {
			return 0, err
		}
		values = vr.values
		f.VLMeta[name] = v
		f.VLMetaNames = append(f.VLMetaNames, name)
	}
	return start, nil
}

// maxAttrBytes bounds the decoded size of all attributes together, so
// lying chunk headers (a few bytes each can claim megabytes) cannot make
// a parse allocate or fill memory without limit.
const maxAttrBytes = 64 << 20

// decodeSmall decodes the Blosc2 chunk src (a frame-internal chunk: an
// attribute or the index) after checking its header and that its decoded
// size is at most limit bytes.
func decodeSmall(src []byte, limit int64) ([]byte, error) {
	ch, err := readChunkHeader(src, int64(len(src)))
	if err != nil {
		return nil, err
	}
	if ch.nbytes > limit {
		return nil, fmt.Errorf("chunk decodes to %d bytes, above the limit of %d: %w", ch.nbytes, limit, ErrTooLarge)
	}
	dst := make([]byte, ch.nbytes)
	if err := Decode(dst, src[:ch.cbytes]); err != nil {
		return nil, fmt.Errorf("decoding a chunk: %w", err)
	}
	return dst, nil
}
