package tgm

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/tetsql/tetsql/array"
)

// Object is one data object (an NTensorFrame): its descriptor and
// metadata, and where its bytes are. Decode gives its values.
type Object struct {
	// Message is the index of the message holding the object; Index its
	// position among the message's objects (both 0-based).
	Message, Index int
	// Name is base[i].name when it is a non-empty string, else
	// base[i].mars.param, else "object_<i>".
	Name string
	// DType is the Tensogram dtype name ("float32", "bfloat16", …).
	DType string
	// Shape is the tensor's shape; empty for a scalar (one element).
	Shape []int64
	// Strides are the element strides the descriptor gives (nil when
	// absent); Decode refuses any but C-contiguous ones.
	Strides []int64
	// ByteOrder is the order of the stored elements, "little" or "big".
	ByteOrder string
	// Encoding, Filter and Compression name the stages of the pipeline
	// ("none" when absent).
	Encoding, Filter, Compression string
	// Params are the descriptor's other keys (sp_*, zstd_level,
	// shuffle_element_size, blosc2_*, …), as decoded.
	Params map[string]any
	// Metadata is base[i] of the message metadata with any preceder
	// frame's entry merged in (the preceder wins) and "_reserved_"
	// removed; never nil.
	Metadata map[string]any
	// FrameOffset is the object frame's offset in the file and
	// FrameLength its total_length.
	FrameOffset, FrameLength int64

	elements int64   // product of Shape
	frame    Frame   // relative to the message
	msg      []byte  // the message's bytes
	payload  []byte  // the encoded payload
	masks    []mask  // NaN / ±Inf masks, in nan, inf+, inf- order
	hash     uint64  // expected xxh3-64 of the frame body
	hashed   bool    // hash is set (the frame's slot or a hash frame entry)
	packing  packing // simple_packing parameters
	shuffle  int64   // shuffle_element_size (0: absent)
	descErr  error   // a descriptor problem Decode reports
	typeName string  // "type" key of the descriptor
}

// Elements is the number of elements (1 for a scalar, 0 when an extent
// is 0).
func (o *Object) Elements() int64 { return o.elements }

// Hashed reports whether the object's bytes have a digest to be checked
// against (the frame's inline hash, or a hash frame's entry).
func (o *Object) Hashed() bool { return o.hashed }

// descriptor keys with a field of their own; the rest go to Params.
var descriptorKeys = map[string]bool{"type": true, "ndim": true, "shape": true, "strides": true,
	"dtype": true, "byte_order": true, "encoding": true, "filter": true, "compression": true, "masks": true}

// parseObject reads the descriptor of the data object frame fr of msg and
// locates its payload and mask blobs. Problems that leave the object
// undecodable but the message well-formed (strides, byte order, simple
// packing parameters) are kept for Decode to report.
func parseObject(msg []byte, fr Frame, index int) (Object, error) {
	o := Object{Index: index, frame: fr, msg: msg, FrameLength: fr.Length}
	frame := msg[fr.Offset : fr.Offset+fr.Length]
	end := uint64(len(frame) - dataFooterSize)
	cborOff := binary.BigEndian.Uint64(frame[end:])
	if cborOff < frameHeaderSize || cborOff > end {
		return o, fmt.Errorf("cbor_offset %d outside [%d, %d]: %w", cborOff, frameHeaderSize, end, array.ErrCorrupt)
	}
	var (
		v      any
		err    error
		region []byte
	)
	if fr.Flags&frameFlagCBORAfter != 0 {
		region = frame[frameHeaderSize:cborOff]
		v, err = decodeCBOR(frame[cborOff:end])
	} else {
		var n int
		v, n, err = decodeCBORFirst(frame[cborOff:end])
		region = frame[cborOff+uint64(n) : end]
	}
	if err != nil {
		return o, fmt.Errorf("descriptor: %w", err)
	}
	d := asMap(v)
	if d == nil {
		return o, fmt.Errorf("descriptor is a CBOR %T, not a map: %w", v, array.ErrCorrupt)
	}
	if err := o.readDescriptor(d); err != nil {
		return o, fmt.Errorf("descriptor: %w", err)
	}
	if err := o.locate(d, region); err != nil {
		return o, err
	}
	o.hash, o.hashed = fr.slot(msg), fr.HashPresent()
	return o, nil
}

// readDescriptor reads the keys every object needs: shape, dtype and the
// pipeline's stage names.
func (o *Object) readDescriptor(d map[string]any) error {
	o.typeName, _ = d["type"].(string)
	shape, ok := d["shape"].([]any)
	if !ok {
		return fmt.Errorf("shape is missing or not an array: %w", array.ErrCorrupt)
	}
	o.Shape = make([]int64, len(shape))
	n := uint64(1)
	for i, s := range shape {
		e, ok := asUint(s)
		if !ok || e > math.MaxInt64 {
			return fmt.Errorf("shape[%d] = %v is not a valid extent: %w", i, s, array.ErrCorrupt)
		}
		o.Shape[i] = int64(e)
		hi, lo := bits.Mul64(n, e)
		if hi != 0 || lo > math.MaxInt64/16 {
			return fmt.Errorf("shape %v holds too many elements: %w", shape, array.ErrCorrupt)
		}
		n = lo
	}
	o.elements = int64(n)
	if nd, ok := d["ndim"]; ok {
		if k, ok := asUint(nd); !ok || k != uint64(len(shape)) {
			return fmt.Errorf("ndim %v but shape has %d extents: %w", nd, len(shape), array.ErrCorrupt)
		}
	}
	if st, ok := d["strides"].([]any); ok {
		o.Strides = make([]int64, len(st))
		for i, s := range st {
			e, ok := asUint(s)
			if !ok || e > math.MaxInt64 {
				return fmt.Errorf("strides[%d] = %v is not a valid stride: %w", i, s, array.ErrCorrupt)
			}
			o.Strides[i] = int64(e)
		}
	}
	var err error
	if o.DType, err = stringKey(d, "dtype", ""); err != nil {
		return err
	}
	if o.DType == "" {
		return fmt.Errorf("dtype is missing: %w", array.ErrCorrupt)
	}
	for _, k := range []struct {
		dst  *string
		name string
		def  string
	}{{&o.ByteOrder, "byte_order", "little"}, {&o.Encoding, "encoding", "none"},
		{&o.Filter, "filter", "none"}, {&o.Compression, "compression", "none"}} {
		if *k.dst, err = stringKey(d, k.name, k.def); err != nil {
			return err
		}
	}
	o.Params = map[string]any{}
	for k, v := range d {
		if !descriptorKeys[k] {
			o.Params[k] = v
		}
	}
	return nil
}

// stringKey is the text value of key k of d, def when absent.
func stringKey(d map[string]any, k, def string) (string, error) {
	v, ok := d[k]
	if !ok {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s is a %T, not text: %w", k, v, array.ErrCorrupt)
	}
	return s, nil
}

// locate finds the payload and the mask blobs in the region (the bytes of
// the frame that are not header, descriptor or footer) and reads the
// parameters of the encoding and filter.
func (o *Object) locate(d map[string]any, region []byte) error {
	payloadEnd := uint64(len(region))
	if mv, ok := d["masks"]; ok {
		md := asMap(mv)
		if md == nil {
			return fmt.Errorf("descriptor masks is a %T, not a map: %w", mv, array.ErrCorrupt)
		}
		for _, kind := range maskKinds {
			spec, ok := md[kind]
			if !ok {
				continue
			}
			mk, err := readMask(kind, spec, region)
			if err != nil {
				return err
			}
			payloadEnd = min(payloadEnd, mk.offset)
			o.masks = append(o.masks, mk)
		}
	}
	o.payload = region[:payloadEnd]
	o.packing, o.descErr = readPacking(o, d)
	if o.descErr == nil && o.Filter == "shuffle" {
		o.shuffle = 0
		if v, ok := d["shuffle_element_size"]; ok {
			es, ok := asUint(v)
			if !ok || es == 0 || es > 1<<20 {
				o.descErr = fmt.Errorf("shuffle_element_size %v: %w", v, array.ErrCorrupt)
			}
			o.shuffle = int64(es)
		}
	}
	return nil
}

// StoredBytes is the size of the object's encoded payload in the file
// (without its descriptor and mask blobs).
func (o *Object) StoredBytes() int64 { return int64(len(o.payload)) }

// Codec names the stages that stored the payload, joined by "+" in the
// order they were applied ("simple_packing+shuffle+zstd"), or "raw".
func (o *Object) Codec() string {
	var s []string
	for _, st := range []string{o.Encoding, o.Filter, o.Compression} {
		if st != "none" && st != "" {
			s = append(s, st)
		}
	}
	if len(s) == 0 {
		return "raw"
	}
	return strings.Join(s, "+")
}
