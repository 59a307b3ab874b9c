package blosc

import (
	"bytes"
	"errors"
	"fmt"
)

// Sentinel errors of the frame layer, besides ErrCorrupt and
// ErrUnsupported.
var (
	// ErrTruncated reports a frame shorter than its header says.
	ErrTruncated = errors.New("blosc: truncated frame")
	// ErrTooLarge reports a size above a limit: more chunks than
	// MaxChunks, attributes above their budget, a frame decoding to more
	// than the caller allows.
	ErrTooLarge = errors.New("blosc: above the limit")
	// ErrNotRegular reports a sparse frame's file that is not a regular
	// file (a FIFO or a device, which could block when opened).
	ErrNotRegular = errors.New("blosc: not a regular file")
	// ErrChanged reports a chunk file whose size changed since the sparse
	// frame was parsed.
	ErrChanged = errors.New("blosc: chunk file changed")
	// ErrNoChunk reports a chunk number outside the frame's chunks.
	ErrNoChunk = errors.New("blosc: no such chunk")
)

// Magic is how every Blosc2 frame starts: a msgpack fixarray of 14, then
// the fixstr "b2frame\0". Files are recognised by it, never by extension.
var Magic = []byte{0x9e, 0xa8, 'b', '2', 'f', 'r', 'a', 'm', 'e', 0}

// IsFrame reports whether data starts like a Blosc2 frame.
func IsFrame(data []byte) bool { return bytes.HasPrefix(data, Magic) }

// Frame type, the low nibble of the frame_type byte.
const (
	frameContiguous = 0
	frameSparse     = 1
)

// minHeaderLen is where the metalayer section starts: the fixed header
// fields end at byte 87.
const minHeaderLen = 87

// frameHeader holds the fixed fields of a frame header (§2.1 of the
// notes).
type frameHeader struct {
	headerLen int64
	frameLen  int64
	frameType byte
	nbytes    int64
	cbytes    int64
	typesize  int64
	blocksize int64
	chunksize int64
	hasVLMeta bool
	version   int64 // frame format version, the low nibble of the general flags
}

// parseFrameHeader reads the fixed header fields of data, a frame whose
// length is at least the frame_len it declares (a longer buffer is cut to
// it).
func parseFrameHeader(data []byte) (frameHeader, []byte, error) {
	var h frameHeader
	if !IsFrame(data) {
		return h, nil, fmt.Errorf("blosc: not a Blosc2 frame (bad magic): %w", ErrCorrupt)
	}
	if len(data) < minHeaderLen {
		return h, nil, fmt.Errorf("blosc: frame of %d bytes is shorter than its fixed header: %w", len(data), ErrTruncated)
	}
	r := &MsgReader{b: data[:minHeaderLen], pos: 10, ctx: "frame header"}
	hl, err := r.Int32("header_len")
	if err != nil {
		return h, nil, err
	}
	if err := r.Marker(0xcf, "frame_len"); err != nil {
		return h, nil, err
	}
	fl, err := r.uint(8)
	if err != nil {
		return h, nil, err
	}
	switch {
	case fl > uint64(len(data)):
		return h, nil, fmt.Errorf("blosc: frame_len %d but only %d bytes: %w", fl, len(data), ErrTruncated)
	case hl < minHeaderLen || uint64(hl) > fl:
		return h, nil, fmt.Errorf("blosc: header_len %d outside [%d, frame_len %d]: %w", hl, minHeaderLen, fl, ErrCorrupt)
	}
	h.headerLen, h.frameLen = int64(hl), int64(fl)
	data = data[:fl]
	if err := r.Marker(0xa4, "flags"); err != nil {
		return h, nil, err
	}
	flags, _ := r.take(4)
	general := flags[0]
	switch {
	case general&0x0f > 3:
		return h, nil, fmt.Errorf("blosc: frame format version %d: %w", general&0x0f, ErrUnsupported)
	case (general>>4)&3 != 1:
		return h, nil, fmt.Errorf("blosc: frame offset width code %d (only 64-bit offsets): %w", (general>>4)&3, ErrUnsupported)
	case general&0x40 != 0:
		return h, nil, fmt.Errorf("blosc: variable-length chunks: %w", ErrUnsupported)
	case general&0x80 != 0:
		return h, nil, fmt.Errorf("blosc: variable-length blocks: %w", ErrUnsupported)
	}
	h.version = int64(general & 0x0f)
	h.frameType = flags[1] & 0x0f
	if h.frameType != frameContiguous && h.frameType != frameSparse {
		return h, nil, fmt.Errorf("blosc: frame type %d: %w", h.frameType, ErrUnsupported)
	}
	if h.nbytes, err = r.Int64("nbytes"); err != nil {
		return h, nil, err
	}
	if h.cbytes, err = r.Int64("cbytes"); err != nil {
		return h, nil, err
	}
	var fields [3]int32
	for i, name := range []string{"typesize", "blocksize", "chunksize"} {
		if fields[i], err = r.Int32(name); err != nil {
			return h, nil, err
		}
	}
	h.typesize, h.blocksize, h.chunksize = int64(fields[0]), int64(fields[1]), int64(fields[2])
	switch {
	case h.nbytes < 0 || h.cbytes < 0:
		return h, nil, fmt.Errorf("blosc: negative nbytes %d or cbytes %d: %w", h.nbytes, h.cbytes, ErrCorrupt)
	case h.typesize < 1 || h.typesize > 255:
		return h, nil, fmt.Errorf("blosc: typesize %d: %w", h.typesize, ErrCorrupt)
	case h.chunksize == 0:
		return h, nil, fmt.Errorf("blosc: variable chunk size (chunksize 0): %w", ErrUnsupported)
	case h.chunksize < 0 && !(h.chunksize == -1 && h.nbytes == 0), h.blocksize < 0:
		// -1 is how an empty super-chunk says its chunk size is not set
		// yet. The blocksize is informational (each chunk has its own):
		// a layout on top, such as b2nd's, checks it.
		return h, nil, fmt.Errorf("blosc: chunksize %d, blocksize %d: %w", h.chunksize, h.blocksize, ErrCorrupt)
	}
	r.pos = 68 // skip the thread counts: informational
	vl, _ := r.byte1()
	switch vl {
	case 0xc3:
		h.hasVLMeta = true
	case 0xc2:
	default:
		r.pos--
		return h, nil, r.Errorf("vlmetalayers flag: marker 0x%02x, want a bool", vl)
	}
	if err := r.Marker(0xd8, "filters"); err != nil {
		return h, nil, err
	}
	return h, data, nil
}

// section is a metalayer section: names mapped to their contents, in the
// order the map lists them.
type section struct {
	names    []string
	contents map[string][]byte
}

// parseSection reads a metalayer section (§2.2) starting at start in
// data[:end]. Positions in the map are relative to base (0 for the header,
// the trailer start for vlmetalayers) and must point at a bin32 that lies
// inside data[:end].
func parseSection(data []byte, start, end, base int64, ctx string) (section, error) {
	s := section{contents: map[string][]byte{}}
	if start < 0 || start > end || end > int64(len(data)) {
		return s, fmt.Errorf("blosc: %s at %d outside [0, %d]: %w", ctx, start, end, ErrCorrupt)
	}
	r := &MsgReader{b: data[:end], pos: int(start), ctx: ctx}
	if err := r.Marker(0x93, "section"); err != nil {
		return s, err
	}
	if err := r.Marker(0xcd, "section index"); err != nil {
		return s, err
	}
	if _, err := r.uint(2); err != nil {
		return s, err
	}
	n, err := r.mapLen("names")
	if err != nil {
		return s, err
	}
	for i := 0; i < n; i++ {
		name, err := r.Str("name")
		if err != nil {
			return s, err
		}
		if len(name) > 31 {
			return s, r.Errorf("name of %d bytes (at most 31)", len(name))
		}
		if _, dup := s.contents[name]; dup {
			return s, r.Errorf("name %q twice", name)
		}
		pos, err := r.Int32("position of " + name)
		if err != nil {
			return s, err
		}
		at := base + int64(pos)
		c, err := bin32At(data[:end], at, start)
		if err != nil {
			return s, fmt.Errorf("blosc: %s %q: %w", ctx, name, err)
		}
		s.names = append(s.names, name)
		s.contents[name] = c
	}
	if err := r.Marker(0xdc, "contents"); err != nil {
		return s, err
	}
	if m, err := r.uint(2); err != nil {
		return s, err
	} else if int(m) != n {
		return s, r.Errorf("%d contents for %d names", m, n)
	}
	return s, nil
}

// bin32At returns the payload of the bin32 at position at, which must lie
// in data at or after lo.
func bin32At(data []byte, at, lo int64) ([]byte, error) {
	if at < lo || at > int64(len(data))-5 {
		return nil, fmt.Errorf("content position %d outside [%d, %d): %w", at, lo, len(data), ErrCorrupt)
	}
	if data[at] != 0xc6 {
		return nil, fmt.Errorf("content at %d: marker 0x%02x, want bin32 0xc6: %w", at, data[at], ErrCorrupt)
	}
	n := int64(uint32(data[at+1])<<24 | uint32(data[at+2])<<16 | uint32(data[at+3])<<8 | uint32(data[at+4]))
	if n > int64(len(data))-at-5 {
		return nil, fmt.Errorf("content of %d bytes at %d runs past %d: %w", n, at, len(data), ErrCorrupt)
	}
	return data[at+5 : at+5+n], nil
}
