package tgm

import (
	"encoding/binary"
	"fmt"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/codec/blosc"
)

// DefaultMaxObjectBytes is the decoded-size limit Decode applies when the
// caller gives none. An object is decoded whole (it is one chunk), and a
// few bytes of zstd or a 0-bit simple_packing object can declare any
// size, so some bound is needed against small hostile files; real fields
// are far below it.
const DefaultMaxObjectBytes = 1 << 30

// DecodedBytes is the size of the object's decoded values: Elements ×
// the size of Type (0 when Type is an error).
func (o *Object) DecodedBytes() int64 {
	t, err := o.Type()
	if err != nil {
		return 0
	}
	return o.elements * int64(t.Size())
}

// Decode returns the object's values: Elements() little-endian elements
// of Type(), in C order, with NaN / ±Inf restored at masked positions. It
// decodes into dst when dst has the capacity, else into a new buffer; the
// result never aliases the file's bytes. When the object has a hash (its
// frame's inline hash or a hash frame's entry) the frame body is verified
// first: a mismatch is an error, never decoded data. An object whose
// decoded size exceeds limit (DefaultMaxObjectBytes when limit ≤ 0) is
// refused with array.ErrTooLarge before anything is allocated. A dtype,
// encoding, filter or compression this reader does not handle is an
// error wrapping array.ErrUnsupported that names it; bytes that do not
// decode to what the descriptor says wrap array.ErrCorrupt. Errors name
// the message and the object.
func (o *Object) Decode(dst []byte, limit int64) ([]byte, error) {
	out, err := o.decode(dst, limit)
	if err != nil {
		return nil, fmt.Errorf("tgm: %s: %w", o.where(), err)
	}
	return out, nil
}

// where names the object in errors.
func (o *Object) where() string {
	return fmt.Sprintf("message %d, object %d (%s)", o.Message, o.Index, o.Name)
}

func (o *Object) decode(dst []byte, limit int64) ([]byte, error) {
	// The hash first: a damaged descriptor reads as damage, not as an
	// unsupported dtype or codec.
	if err := o.verifyHash(); err != nil {
		return nil, err
	}
	t, err := o.Type()
	if err != nil {
		return nil, err
	}
	if err := o.checkLayout(); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = DefaultMaxObjectBytes
	}
	n := o.elements
	size := n * int64(t.Size()) // n ≤ MaxInt64/16: no overflow
	if size > limit {
		return nil, fmt.Errorf("decodes to %d bytes, above the limit of %d: %w", size, limit, array.ErrTooLarge)
	}
	info := dtypes[o.DType]
	packed := o.Encoding == "simple_packing"
	stored := n * int64(info.width)
	if packed {
		stored = o.packing.packedSize(n)
	}
	convert := packed || info.width != t.Size() || (o.ByteOrder == "big" && info.unit > 1)
	shuffled := o.Filter == "shuffle"

	// 1. compression, into dst when nothing else follows.
	var scratch []byte
	if !shuffled && !convert {
		scratch = dst
	}
	raw, err := decompress(o.Compression, o.payload, scratch, stored, "payload")
	if err != nil {
		return nil, err
	}
	borrowed := o.Compression == "none" // raw is the file's own bytes
	// 2. filter.
	if shuffled {
		es := o.shuffle
		if es == 0 {
			es = int64(info.width)
			if packed {
				es = 1
			}
		}
		if int64(len(raw))%es != 0 {
			return nil, fmt.Errorf("shuffle: %d bytes are not a whole number of %d-byte elements: %w",
				len(raw), es, array.ErrCorrupt)
		}
		var target []byte
		if convert {
			target = make([]byte, len(raw))
		} else {
			target = buffer(dst, int64(len(raw)))
		}
		blosc.Unshuffle(target, raw, int(es))
		raw, borrowed = target, false
	}
	// 3. encoding and byte order.
	out := raw
	switch {
	case packed:
		out = buffer(dst, size)
		o.packing.unpack(out, raw, n)
	case convert:
		out = buffer(dst, size)
		convertElements(out, raw, o.DType, o.ByteOrder == "big", info.unit)
	case borrowed:
		out = buffer(dst, size)
		copy(out, raw)
	}
	// 4. masks.
	if err := o.applyMasks(out, t); err != nil {
		return nil, err
	}
	return out, nil
}

// checkLayout refuses what the descriptor says that this reader does
// not decode: another object type, strides that are not C order, an
// unknown byte order, encoding or filter, bad encoding parameters.
func (o *Object) checkLayout() error {
	if o.typeName != "" && o.typeName != "ntensor" {
		return fmt.Errorf("object type %q (only ntensor is read): %w", o.typeName, array.ErrUnsupported)
	}
	if o.descErr != nil {
		return o.descErr
	}
	if o.Strides != nil && o.elements > 0 {
		if len(o.Strides) != len(o.Shape) {
			return fmt.Errorf("%d strides for %d extents: %w", len(o.Strides), len(o.Shape), array.ErrCorrupt)
		}
		want := int64(1)
		for k := len(o.Shape) - 1; k >= 0; k-- {
			if o.Shape[k] > 1 && o.Strides[k] != want {
				return fmt.Errorf("strides %v are not C-contiguous for shape %v: %w", o.Strides, o.Shape, array.ErrUnsupported)
			}
			want *= o.Shape[k]
		}
	}
	switch {
	case o.ByteOrder != "little" && o.ByteOrder != "big":
		return fmt.Errorf("byte_order %q: %w", o.ByteOrder, array.ErrUnsupported)
	case o.Encoding != "none" && o.Encoding != "simple_packing":
		return fmt.Errorf("encoding %q: %w", o.Encoding, array.ErrUnsupported)
	case o.Filter != "none" && o.Filter != "shuffle":
		return fmt.Errorf("filter %q: %w", o.Filter, array.ErrUnsupported)
	}
	return nil
}

// convertElements turns stored elements into exposed ones: bfloat16
// widened to float32, multi-byte units swapped when stored big-endian.
// dst and src may be the same buffer when the widths are equal.
func convertElements(dst, src []byte, dtype string, big bool, unit int) {
	if dtype == "bfloat16" {
		for i := 0; i+1 < len(src); i += 2 {
			h := binary.LittleEndian.Uint16(src[i:])
			if big {
				h = binary.BigEndian.Uint16(src[i:])
			}
			binary.LittleEndian.PutUint32(dst[2*i:], uint32(h)<<16)
		}
		return
	}
	if !big || unit == 1 {
		copy(dst, src)
		return
	}
	switch unit {
	case 2:
		for i := 0; i+1 < len(src); i += 2 {
			binary.LittleEndian.PutUint16(dst[i:], binary.BigEndian.Uint16(src[i:]))
		}
	case 4:
		for i := 0; i+3 < len(src); i += 4 {
			binary.LittleEndian.PutUint32(dst[i:], binary.BigEndian.Uint32(src[i:]))
		}
	case 8:
		for i := 0; i+7 < len(src); i += 8 {
			binary.LittleEndian.PutUint64(dst[i:], binary.BigEndian.Uint64(src[i:]))
		}
	}
}
