package tgm

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/fxamacker/cbor/v2"
	"github.com/zeebo/xxh3"
)

// A small writer of wire-version-3 messages for tests: frames with any
// content, order, flags and hashes, so that each rule of the reader can be
// exercised on its own.

// tframe is one frame to write.
type tframe struct {
	typ    uint16
	flags  uint16
	body   []byte // for type 9: region and descriptor (see objectFrame)
	cborAt uint64 // type 9: cbor_offset
	hash   bool   // set HASH_PRESENT and write the body's digest
	slot   uint64 // the slot when hash is false (normally 0)
}

// canon encodes v as canonical CBOR.
func canon(t testing.TB, v any) []byte {
	t.Helper()
	em, err := cbor.CanonicalEncOptions().EncMode()
	if err != nil {
		t.Fatal(err)
	}
	b, err := em.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bytesOf writes the frame.
func (f tframe) bytesOf() []byte {
	fs := 12
	if f.typ == FrameDataObject {
		fs = 20
	}
	total := 16 + len(f.body) + fs
	b := make([]byte, 0, total)
	b = append(b, 'F', 'R')
	flags := f.flags
	slot := f.slot
	if f.hash {
		flags |= frameFlagHashPresent
		slot = xxh3.Hash(f.body)
	}
	b = binary.BigEndian.AppendUint16(b, f.typ)
	b = binary.BigEndian.AppendUint16(b, 1)
	b = binary.BigEndian.AppendUint16(b, flags)
	b = binary.BigEndian.AppendUint64(b, uint64(total))
	b = append(b, f.body...)
	if f.typ == FrameDataObject {
		b = binary.BigEndian.AppendUint64(b, f.cborAt)
	}
	b = binary.BigEndian.AppendUint64(b, slot)
	return append(b, "ENDF"...)
}

// metaFrame is a metadata-like frame (types 1, 2, 3, 5, 6, 7, 8) of v.
func metaFrame(t testing.TB, typ uint16, v any, hash bool) tframe {
	return tframe{typ: typ, body: canon(t, v), hash: hash}
}

// objectFrame is a data object frame in the usual layout: payload, mask
// blobs, then the descriptor.
func objectFrame(t testing.TB, desc map[string]any, region []byte, hash bool) tframe {
	d := canon(t, desc)
	body := append(append([]byte{}, region...), d...)
	return tframe{typ: FrameDataObject, flags: frameFlagCBORAfter, body: body,
		cborAt: uint64(16 + len(region)), hash: hash}
}

// message assembles a message: preamble, frames padded to 8 bytes, and
// the postamble with first_footer_offset. streaming writes total_length 0
// in both places.
func message(frames []tframe, streaming bool, flags uint16) []byte {
	b := append([]byte{}, "TENSOGRM"...)
	b = binary.BigEndian.AppendUint16(b, 3)
	b = binary.BigEndian.AppendUint16(b, flags)
	b = append(b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	firstFooter := -1
	for _, f := range frames {
		if phase(f.typ) == 2 && firstFooter < 0 {
			firstFooter = len(b)
		}
		b = append(b, f.bytesOf()...)
		for len(b)%8 != 0 {
			b = append(b, 0)
		}
	}
	if firstFooter < 0 {
		firstFooter = len(b)
	}
	total := uint64(len(b) + 24)
	if streaming {
		total = 0
	}
	b = binary.BigEndian.AppendUint64(b, uint64(firstFooter))
	b = binary.BigEndian.AppendUint64(b, total)
	b = append(b, "39277777"...)
	binary.BigEndian.PutUint64(b[16:], total)
	return b
}

// f64le is the little-endian bytes of float64 values.
func f64le(vs ...float64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// simpleMessage is one message holding one float64 object of the given
// values, raw, with metadata naming it "x".
func simpleMessage(t testing.TB, hash bool, vs ...float64) []byte {
	desc := map[string]any{"type": "ntensor", "ndim": 1, "shape": []int{len(vs)}, "strides": []int{1},
		"dtype": "float64", "byte_order": "little", "encoding": "none", "filter": "none", "compression": "none"}
	return message([]tframe{
		metaFrame(t, FrameHeaderMetadata, map[string]any{"base": []any{map[string]any{"name": "x"}}}, hash),
		objectFrame(t, desc, f64le(vs...), hash),
	}, false, 0)
}
