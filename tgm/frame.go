package tgm

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/tetsql/tetsql/array"
	"github.com/zeebo/xxh3"
)

// Frame types of wire version 3.
const (
	FrameHeaderMetadata   = 1
	FrameHeaderIndex      = 2
	FrameHeaderHash       = 3
	FrameFooterHash       = 5
	FrameFooterIndex      = 6
	FrameFooterMetadata   = 7
	FramePrecederMetadata = 8
	FrameDataObject       = 9 // NTensorFrame
)

// Frame flag bits.
const (
	frameFlagCBORAfter   = 1 << 0 // type 9: the descriptor follows the payload
	frameFlagHashPresent = 1 << 1 // the hash slot holds the xxh3-64 of the body
)

// Preamble flag bits (advisory: the frames present are the truth).
const flagHashesPresent = 1 << 7

const (
	frameHeaderSize = 16
	frameFooterSize = 12 // hash u64 | "ENDF"
	dataFooterSize  = 20 // cbor_offset u64 | hash u64 | "ENDF"
)

// Frame is one frame of a message as the walk found it.
type Frame struct {
	Type   uint16
	Flags  uint16
	Offset int64 // from the start of the message
	Length int64 // total_length: header, body and footer, without padding
}

// HashPresent reports whether the frame's hash slot holds a digest.
func (f Frame) HashPresent() bool { return f.Flags&frameFlagHashPresent != 0 }

// TypeName is the frame type's name as the wire format documents it
// ("header_metadata", …, "ntensor").
func (f Frame) TypeName() string { return frameTypeName(f.Type) }

func frameTypeName(t uint16) string {
	switch t {
	case FrameHeaderMetadata:
		return "header_metadata"
	case FrameHeaderIndex:
		return "header_index"
	case FrameHeaderHash:
		return "header_hash"
	case FrameFooterHash:
		return "footer_hash"
	case FrameFooterIndex:
		return "footer_index"
	case FrameFooterMetadata:
		return "footer_metadata"
	case FramePrecederMetadata:
		return "preceder_metadata"
	case FrameDataObject:
		return "ntensor"
	}
	return fmt.Sprintf("type_%d", t)
}

// phase is the part of a message a frame type belongs to; phases must
// not go backwards.
func phase(t uint16) int {
	switch t {
	case FrameHeaderMetadata, FrameHeaderIndex, FrameHeaderHash:
		return 0
	case FramePrecederMetadata, FrameDataObject:
		return 1
	}
	return 2
}

func footerSize(t uint16) int {
	if t == FrameDataObject {
		return dataFooterSize
	}
	return frameFooterSize
}

// readFrameHeader reads and checks the frame at msg[pos:], which must end
// at or before limit.
func readFrameHeader(msg []byte, pos, limit int, streaming bool) (Frame, error) {
	if pos+frameHeaderSize > limit {
		return Frame{}, fmt.Errorf("frame header cut short (%d bytes remain): %w", limit-pos, truncOr(streaming))
	}
	fr := Frame{
		Type:   binary.BigEndian.Uint16(msg[pos+2:]),
		Flags:  binary.BigEndian.Uint16(msg[pos+6:]),
		Offset: int64(pos),
	}
	switch {
	case fr.Type == 4:
		return Frame{}, fmt.Errorf("obsolete frame type 4 (wire version 2): %w", array.ErrUnsupported)
	case fr.Type == 0 || fr.Type > FrameDataObject:
		return Frame{}, fmt.Errorf("unknown frame type %d: %w", fr.Type, array.ErrCorrupt)
	}
	length := binary.BigEndian.Uint64(msg[pos+8:])
	fs := footerSize(fr.Type)
	if length < uint64(frameHeaderSize+fs) {
		return Frame{}, fmt.Errorf("%s frame total_length %d is less than its header and footer (%d): %w",
			frameTypeName(fr.Type), length, frameHeaderSize+fs, array.ErrCorrupt)
	}
	if length > uint64(limit-pos) {
		if streaming {
			return Frame{}, fmt.Errorf("%s frame total_length %d runs beyond the end of the file (%d bytes remain): %w",
				frameTypeName(fr.Type), length, limit-pos, array.ErrTruncated)
		}
		return Frame{}, fmt.Errorf("%s frame total_length %d runs beyond the message (%d bytes remain before its postamble): %w",
			frameTypeName(fr.Type), length, limit-pos, array.ErrCorrupt)
	}
	fr.Length = int64(length)
	end := pos + int(length)
	if !bytes.Equal(msg[end-4:end], []byte("ENDF")) {
		return Frame{}, fmt.Errorf("%s frame of %d bytes does not end with ENDF: %w",
			frameTypeName(fr.Type), length, array.ErrCorrupt)
	}
	return fr, nil
}

// truncOr is the sentinel for bytes missing before a limit: the end of
// the file for a streaming message, the postamble of a sized one.
func truncOr(streaming bool) error {
	if streaming {
		return array.ErrTruncated
	}
	return array.ErrCorrupt
}

// body returns the frame's body: the bytes between its header and its
// type-specific footer (what the hash covers).
func (f Frame) body(msg []byte) []byte {
	return msg[f.Offset+frameHeaderSize : f.Offset+f.Length-int64(footerSize(f.Type))]
}

// slot returns the frame's inline hash slot.
func (f Frame) slot(msg []byte) uint64 {
	return binary.BigEndian.Uint64(msg[f.Offset+f.Length-12:])
}

// checkHash verifies a frame whose HASH_PRESENT bit is set (others pass).
func (f Frame) checkHash(msg []byte) error {
	if !f.HashPresent() {
		return nil
	}
	want := f.slot(msg)
	if got := xxh3.Hash(f.body(msg)); got != want {
		return fmt.Errorf("%s frame at offset %d: xxh3-64 hash mismatch (stored %016x, computed %016x): %w",
			f.TypeName(), f.Offset, want, got, array.ErrCorrupt)
	}
	return nil
}
