package fold

import (
	"encoding/binary"
	"math"
	"unsafe"
)

const (
	// blockLen bounds the elements of one integer block viewed in place
	// (16 KiB of i64: the two-pass variance of wide integers re-reads it
	// from L1; narrow integers rely on it to keep Σx² within 64 bits).
	blockLen = 2048
	// floatBlockLen bounds the elements of one float block viewed in
	// place: the one-pass kernels read each element once, so a block is
	// as long as the accuracy of its lane sums allows (see floatblock.go).
	floatBlockLen = 8192
	// gatherLen bounds the elements of one block copied into a stack
	// buffer (unaligned, strided, big-endian or f16 input); at most
	// blockLen.
	gatherLen = 1024
)

// nativeLE reports whether the host is little-endian, so that an aligned
// payload can be read in place as a typed slice.
var nativeLE = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// elem is the set of element types read from payloads.
type elem interface {
	int8 | uint8 | uint16 | int16 | uint32 | int32 | uint64 | int64 | float32 | float64
}

// view returns the n contiguous elements starting at element off as a
// typed slice aliasing data, if the host is little-endian and the first
// element is aligned for T — or the CPU loads unaligned numbers at full
// speed (unalignedOK) — otherwise ok is false. data must hold them.
//
// A misaligned *T is allowed by Go's checkptr rules for element types
// without pointers, and the compiled loads on amd64 and arm64 (and the
// AVX2 kernels' VMOVUPS) do not require alignment.
func view[T elem](data []byte, off, n int) (xs []T, ok bool) {
	size := int(unsafe.Sizeof(*new(T)))
	b := data[off*size : (off+n)*size]
	p := unsafe.Pointer(unsafe.SliceData(b))
	if !nativeLE || (!unalignedOK && uintptr(p)%uintptr(size) != 0) {
		return nil, false
	}
	return unsafe.Slice((*T)(p), n), true
}

// gather copies the elements off, off+step, … (len(dst) of them) of the
// little-endian payload into dst. Any alignment and host byte order.
func gather[T elem](dst []T, data []byte, off, step int) {
	size := int(unsafe.Sizeof(*new(T)))
	_ = data[(off+(len(dst)-1)*step)*size+size-1] // one bounds check
	for i := range dst {
		dst[i] = decode[T](data[(off+i*step)*size:])
	}
}

// decode reads one little-endian T from the front of b.
func decode[T elem](b []byte) T {
	var v T
	switch unsafe.Sizeof(v) {
	case 1:
		*(*uint8)(unsafe.Pointer(&v)) = b[0]
	case 2:
		*(*uint16)(unsafe.Pointer(&v)) = binary.LittleEndian.Uint16(b)
	case 4:
		*(*uint32)(unsafe.Pointer(&v)) = binary.LittleEndian.Uint32(b)
	default:
		*(*uint64)(unsafe.Pointer(&v)) = binary.LittleEndian.Uint64(b)
	}
	return v
}

// gatherF16 converts the f16 elements off, off+step, … into dst.
func gatherF16(dst []float32, data []byte, off, step int) {
	if step == 1 {
		if hs, ok := view[uint16](data, off, len(dst)); ok {
			widenF16(dst, hs, kernel)
			return
		}
	}
	_ = data[(off+(len(dst)-1)*step)*2+1]
	for i := range dst {
		dst[i] = halfToFloat32(binary.LittleEndian.Uint16(data[(off+i*step)*2:]))
	}
}

// widenF16 converts the halves hs to dst (as long), with F16C when the
// kernel level allows and the CPU has it.
func widenF16(dst []float32, hs []uint16, level int) {
	n := 0
	if level >= kernAVX2 && hasF16C && len(hs) >= 8 {
		n = len(hs) &^ 7
		cvtF16AVX2(&dst[0], &hs[0], n)
	}
	for i, h := range hs[n:] {
		dst[n+i] = halfToFloat32(h)
	}
}

// halfToFloat32 converts binary16 bits to float32 exactly, like
// array.HalfToFloat32, without a loop: place exponent and mantissa in
// a float32 (exponent bias 127 instead of 15), force the all-ones
// exponent of Inf and NaN, and rescale by 2^(127−15), which is exact for
// normal and subnormal halves alike.
func halfToFloat32(h uint16) float32 {
	b := uint32(h&0x7fff) << 13
	if h&0x7c00 == 0x7c00 {
		b |= 0x7f800000
	}
	return math.Float32frombits(b|uint32(h&0x8000)<<16) * 0x1p112
}

// blocks walks one run of a payload — the n elements off, off+step, … —
// as typed blocks: in place when contiguous and aligned on a
// little-endian host (up to span elements: blockLen or floatBlockLen),
// else copied into buf (up to gatherLen). With f16 set, T is float32 and
// the payload holds f16.
type blocks[T elem] struct {
	data         []byte
	off, step, n int
	span         int
	f16          bool
	buf          *[gatherLen]T
}

// next returns the next block, or nil at the end of the run. The block
// is valid until the following call.
func (b *blocks[T]) next() []T {
	if b.n <= 0 {
		return nil
	}
	if b.step == 1 && !b.f16 {
		k := min(b.n, b.span)
		if xs, ok := view[T](b.data, b.off, k); ok {
			b.off, b.n = b.off+k, b.n-k
			return xs
		}
	}
	k := min(b.n, gatherLen)
	xs := b.buf[:k]
	if b.f16 {
		gatherF16((*[gatherLen]float32)(unsafe.Pointer(b.buf))[:k], b.data, b.off, b.step)
	} else if span, ok := view[T](b.data, b.off, (k-1)*b.step+1); ok {
		for i := range xs { // strided, aligned: copy without decoding
			xs[i] = span[i*b.step]
		}
	} else {
		gather(xs, b.data, b.off, b.step)
	}
	b.off, b.n = b.off+k*b.step, b.n-k
	return xs
}
