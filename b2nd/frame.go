package b2nd

import (
	"bytes"
	"fmt"

	"github.com/tetsql/tetsql/array"
)

// Magic is how every Blosc2 frame starts: a msgpack fixarray of 14, then
// the fixstr "b2frame\0". Files are recognised by it, never by extension.
var Magic = []byte{0x9e, 0xa8, 'b', '2', 'f', 'r', 'a', 'm', 'e', 0}

// IsFrame reports whether data starts like a Blosc2 frame.
func IsFrame(data []byte) bool { return bytes.HasPrefix(data, Magic) }

// DecodeFunc decodes one Blosc2 chunk (src, from its header on) into dst,
// which is exactly the chunk's decoded size long. The codec package's
// Decode has this signature.
type DecodeFunc func(dst, src []byte) error

// Frame type, the low nibble of the frame_type byte.
const (
	frameContiguous = 0
	frameSparse     = 1
)

// minHeaderLen is where the metalayer section starts: the fixed header
// fields end at byte 87.
const minHeaderLen = 87

// header holds the fixed fields of a frame header (§2.1 of the notes).
type header struct {
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

// parseHeader reads the fixed header fields of data, a frame whose length
// is at least the frame_len it declares (a longer buffer is cut to it).
func parseHeader(data []byte) (header, []byte, error) {
	var h header
	if !IsFrame(data) {
		return h, nil, fmt.Errorf("b2nd: not a Blosc2 frame (bad magic): %w", array.ErrCorrupt)
	}
	if len(data) < minHeaderLen {
		return h, nil, fmt.Errorf("b2nd: frame of %d bytes is shorter than its fixed header: %w", len(data), array.ErrTruncated)
	}
	r := &reader{b: data[:minHeaderLen], pos: 10, ctx: "frame header"}
	hl, err := r.int32("header_len")
	if err != nil {
		return h, nil, err
	}
	if err := r.marker(0xcf, "frame_len"); err != nil {
		return h, nil, err
	}
	fl, err := r.uint(8)
	if err != nil {
		return h, nil, err
	}
	switch {
	case fl > uint64(len(data)):
		return h, nil, fmt.Errorf("b2nd: frame_len %d but only %d bytes: %w", fl, len(data), array.ErrTruncated)
	case hl < minHeaderLen || uint64(hl) > fl:
		return h, nil, fmt.Errorf("b2nd: header_len %d outside [%d, frame_len %d]: %w", hl, minHeaderLen, fl, array.ErrCorrupt)
	}
	h.headerLen, h.frameLen = int64(hl), int64(fl)
	data = data[:fl]
	if err := r.marker(0xa4, "flags"); err != nil {
		return h, nil, err
	}
	flags, _ := r.take(4)
	general := flags[0]
	switch {
	case general&0x0f > 3:
		return h, nil, fmt.Errorf("b2nd: frame format version %d: %w", general&0x0f, array.ErrUnsupported)
	case (general>>4)&3 != 1:
		return h, nil, fmt.Errorf("b2nd: frame offset width code %d (only 64-bit offsets): %w", (general>>4)&3, array.ErrUnsupported)
	case general&0x40 != 0:
		return h, nil, fmt.Errorf("b2nd: variable-length chunks: %w", array.ErrUnsupported)
	case general&0x80 != 0:
		return h, nil, fmt.Errorf("b2nd: variable-length blocks: %w", array.ErrUnsupported)
	}
	h.version = int64(general & 0x0f)
	h.frameType = flags[1] & 0x0f
	if h.frameType != frameContiguous && h.frameType != frameSparse {
		return h, nil, fmt.Errorf("b2nd: frame type %d: %w", h.frameType, array.ErrUnsupported)
	}
	if h.nbytes, err = r.int64("nbytes"); err != nil {
		return h, nil, err
	}
	if h.cbytes, err = r.int64("cbytes"); err != nil {
		return h, nil, err
	}
	var fields [3]int32
	for i, name := range []string{"typesize", "blocksize", "chunksize"} {
		if fields[i], err = r.int32(name); err != nil {
			return h, nil, err
		}
	}
	h.typesize, h.blocksize, h.chunksize = int64(fields[0]), int64(fields[1]), int64(fields[2])
	switch {
	case h.nbytes < 0 || h.cbytes < 0:
		return h, nil, fmt.Errorf("b2nd: negative nbytes %d or cbytes %d: %w", h.nbytes, h.cbytes, array.ErrCorrupt)
	case h.typesize < 1 || h.typesize > 255:
		return h, nil, fmt.Errorf("b2nd: typesize %d: %w", h.typesize, array.ErrCorrupt)
	case h.chunksize == 0:
		return h, nil, fmt.Errorf("b2nd: variable chunk size (chunksize 0): %w", array.ErrUnsupported)
	case h.chunksize < 0 || h.blocksize <= 0:
		return h, nil, fmt.Errorf("b2nd: chunksize %d, blocksize %d: %w", h.chunksize, h.blocksize, array.ErrCorrupt)
	}
	r.pos = 68 // skip the thread counts: informational
	vl, _ := r.byte1()
	switch vl {
	case 0xc3:
		h.hasVLMeta = true
	case 0xc2:
	default:
		r.pos--
		return h, nil, r.errorf("vlmetalayers flag: marker 0x%02x, want a bool", vl)
	}
	if err := r.marker(0xd8, "filters"); err != nil {
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
		return s, fmt.Errorf("b2nd: %s at %d outside [0, %d]: %w", ctx, start, end, array.ErrCorrupt)
	}
	r := &reader{b: data[:end], pos: int(start), ctx: ctx}
	if err := r.marker(0x93, "section"); err != nil {
		return s, err
	}
	if err := r.marker(0xcd, "section index"); err != nil {
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
		name, err := r.str("name")
		if err != nil {
			return s, err
		}
		if len(name) > 31 {
			return s, r.errorf("name of %d bytes (at most 31)", len(name))
		}
		if _, dup := s.contents[name]; dup {
			return s, r.errorf("name %q twice", name)
		}
		pos, err := r.int32("position of " + name)
		if err != nil {
			return s, err
		}
		at := base + int64(pos)
		c, err := bin32At(data[:end], at, start)
		if err != nil {
			return s, fmt.Errorf("b2nd: %s %q: %w", ctx, name, err)
		}
		s.names = append(s.names, name)
		s.contents[name] = c
	}
	if err := r.marker(0xdc, "contents"); err != nil {
		return s, err
	}
	if m, err := r.uint(2); err != nil {
		return s, err
	} else if int(m) != n {
		return s, r.errorf("%d contents for %d names", m, n)
	}
	return s, nil
}

// bin32At returns the payload of the bin32 at position at, which must lie
// in data at or after lo.
func bin32At(data []byte, at, lo int64) ([]byte, error) {
	if at < lo || at > int64(len(data))-5 {
		return nil, fmt.Errorf("content position %d outside [%d, %d): %w", at, lo, len(data), array.ErrCorrupt)
	}
	if data[at] != 0xc6 {
		return nil, fmt.Errorf("content at %d: marker 0x%02x, want bin32 0xc6: %w", at, data[at], array.ErrCorrupt)
	}
	n := int64(uint32(data[at+1])<<24 | uint32(data[at+2])<<16 | uint32(data[at+3])<<8 | uint32(data[at+4]))
	if n > int64(len(data))-at-5 {
		return nil, fmt.Errorf("content of %d bytes at %d runs past %d: %w", n, at, len(data), array.ErrCorrupt)
	}
	return data[at+5 : at+5+n], nil
}
