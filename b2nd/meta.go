package b2nd

import (
	"fmt"
	"math"
	"strings"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/codec/blosc"
)

// MaxDim is the largest rank a b2nd metalayer may declare (B2ND_MAX_DIM).
const MaxDim = 16

// Layout is what the N-d metalayer says about the array.
type Layout struct {
	Metalayer  string  // "b2nd" or "caterva"
	Shape      []int64 // logical size per axis; empty for a 0-d array
	ChunkShape []int64 // chunk size per axis
	BlockShape []int64 // block size per axis, inside a chunk
	// NumpyDType is the dtype string as stored ("<f4", "|b1", ...); for
	// caterva, which stores none, the signed integer of the typesize.
	NumpyDType string
	DType      array.DType // the project's element type
	// BigEndian is set for '>' dtypes: decoded elements must be
	// byte-swapped to little-endian before use.
	BigEndian bool
}

// parseLayout reads a 'b2nd' (7 entries, or 5 meaning "|u1") or
// 'caterva' (5 entries, no dtype) metalayer content. typesize is the
// frame's, used to type caterva arrays.
func parseLayout(name string, content []byte, typesize int64) (Layout, error) {
	l := Layout{Metalayer: name}
	r := blosc.NewMsgReader(content, name+" metalayer")
	n, err := r.Fixarray("metalayer")
	if err != nil {
		return l, err
	}
	if n != 5 && !(name == "b2nd" && n == 7) {
		return l, r.Errorf("%d entries", n)
	}
	if v, err := r.Fixint("version"); err != nil {
		return l, err
	} else if v != 0 {
		return l, fmt.Errorf("b2nd: %s metalayer version %d: %w", name, v, array.ErrUnsupported)
	}
	ndim, err := r.Fixint("ndim")
	if err != nil {
		return l, err
	}
	if ndim > MaxDim {
		return l, fmt.Errorf("b2nd: %s metalayer: ndim %d above %d: %w", name, ndim, MaxDim, array.ErrCorrupt)
	}
	if l.Shape, err = readDims(r, ndim, "shape", true); err != nil {
		return l, err
	}
	if l.ChunkShape, err = readDims(r, ndim, "chunkshape", false); err != nil {
		return l, err
	}
	if l.BlockShape, err = readDims(r, ndim, "blockshape", false); err != nil {
		return l, err
	}
	switch {
	case n == 7:
		format, err := r.Fixint("dtype_format")
		if err != nil {
			return l, err
		}
		if err := r.Expect(0xdb, "dtype"); err != nil {
			return l, err
		}
		dt, err := r.Str("dtype")
		if err != nil {
			return l, err
		}
		if format != 0 {
			return l, fmt.Errorf("b2nd: dtype format %d (dtype %q): %w", format, dt, array.ErrUnsupported)
		}
		l.NumpyDType = dt
		l.DType, l.BigEndian, err = mapDType(dt)
		if err != nil {
			return l, err
		}
	case name == "b2nd":
		l.NumpyDType, l.DType = "|u1", array.U8
	default:
		ints := map[int64]array.DType{1: array.I8, 2: array.I16, 4: array.I32, 8: array.I64}
		d, ok := ints[typesize]
		if !ok {
			return l, fmt.Errorf("b2nd: caterva array of typesize %d: %w", typesize, array.ErrUnsupported)
		}
		l.NumpyDType, l.DType = fmt.Sprintf("<i%d", typesize), d
	}
	if r.Pos() != len(content) {
		return l, r.Errorf("%d trailing bytes", len(content)-r.Pos())
	}
	return l, nil
}

// readDims reads a fixarray of ndim integers: d3 int64 for the shape
// (which may hold zeros), d2 int32 for chunk and block shapes (at least 1).
func readDims(r *blosc.MsgReader, ndim int, what string, shape bool) ([]int64, error) {
	n, err := r.Fixarray(what)
	if err != nil {
		return nil, err
	}
	if n != ndim {
		return nil, r.Errorf("%s has %d axes, ndim is %d", what, n, ndim)
	}
	out := make([]int64, n)
	for i := range out {
		if shape {
			out[i], err = r.Int64(what)
		} else {
			var v int32
			v, err = r.Int32(what)
			out[i] = int64(v)
		}
		if err != nil {
			return nil, err
		}
		if out[i] < 0 || (!shape && out[i] == 0) {
			return nil, fmt.Errorf("b2nd: %s[%d] = %d: %w", what, i, out[i], array.ErrCorrupt)
		}
	}
	return out, nil
}

// mapDType maps a NumPy type string onto the project's element types.
// Little-endian ('<'), byte-order-free ('|') and big-endian ('>') numeric
// types are read; everything else is refused naming the dtype.
func mapDType(s string) (array.DType, bool, error) {
	unsupported := func(why string) (array.DType, bool, error) {
		return array.Invalid, false, fmt.Errorf("b2nd: %s dtype %q: %w", why, s, array.ErrUnsupported)
	}
	if strings.HasPrefix(s, "[") || strings.HasPrefix(s, "(") || strings.HasPrefix(s, "{") {
		return unsupported("structured")
	}
	if len(s) < 3 || !strings.ContainsRune("<>|=", rune(s[0])) {
		return unsupported("unknown")
	}
	kind, width := s[1], s[2:]
	types := map[string]array.DType{
		"i1": array.I8, "i2": array.I16, "i4": array.I32, "i8": array.I64,
		"u1": array.U8, "u2": array.U16, "u4": array.U32, "u8": array.U64,
		"f2": array.F16, "f4": array.F32, "f8": array.F64, "b1": array.U8,
	}
	d, ok := types[s[1:]]
	if !ok {
		switch kind {
		case 'c':
			return unsupported("complex")
		case 'S', 'U', 'V':
			return unsupported("bytes/unicode/void")
		case 'M', 'm':
			return unsupported("datetime")
		case 'O':
			return unsupported("object")
		case 'f', 'i', 'u', 'b':
			return unsupported(fmt.Sprintf("numeric of width %s", width))
		}
		return unsupported("unknown")
	}
	return d, s[0] == '>' && d.Size() > 1, nil
}

// checkLayout applies the consistency rules between the metalayer and the
// frame header (§6.3). Every product is overflow-checked, so a shape
// claiming 10^12 elements fails here before anything is allocated. The
// frame holds ceil(nbytes / chunksize) chunks (the codec package checked
// that), so nbytes equal to the grid's chunks times chunksize means one
// chunk per grid cell, each of chunksize bytes.
func checkLayout(l Layout, f *blosc.Frame) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("b2nd: %s: %w", fmt.Sprintf(format, args...), array.ErrCorrupt)
	}
	if int64(l.DType.Size()) != f.Typesize {
		return bad("dtype %s has %d bytes, frame typesize %d", l.NumpyDType, l.DType.Size(), f.Typesize)
	}
	ext, blk, nchunks := int64(1), int64(1), int64(1)
	empty := false
	for _, n := range l.Shape {
		empty = empty || n == 0
	}
	for d := range l.Shape {
		c, b := l.ChunkShape[d], l.BlockShape[d]
		if b > c && !empty { // an empty array has no blocks to place
			return bad("blockshape[%d] %d above chunkshape %d", d, b, c)
		}
		var ok bool
		if ext, ok = mul(ext, ceilDiv(c, b)*b); !ok {
			return bad("chunk elements overflow")
		}
		if blk, ok = mul(blk, b); !ok {
			return bad("block elements overflow")
		}
		if nchunks, ok = mul(nchunks, ceilDiv(l.Shape[d], c)); !ok {
			return bad("chunk count overflows")
		}
	}
	if empty {
		nchunks = 0
	}
	chunkBytes, ok1 := mul(ext, f.Typesize)
	blockBytes, ok2 := mul(blk, f.Typesize)
	total, ok3 := mul(nchunks, f.ChunkSize)
	switch {
	case !ok1 || !ok2 || !ok3:
		return bad("sizes overflow")
	case chunkBytes != f.ChunkSize:
		return bad("chunksize %d, metalayer gives %d", f.ChunkSize, chunkBytes)
	case blockBytes != f.BlockSize:
		return bad("blocksize %d, metalayer gives %d", f.BlockSize, blockBytes)
	case total != f.NBytes || nchunks != int64(len(f.Chunks)):
		return bad("nbytes %d in %d chunks, the metalayer gives %d chunks of %d bytes", f.NBytes, len(f.Chunks), nchunks, f.ChunkSize)
	}
	return nil
}

func ceilDiv(a, b int64) int64 { return a/b + min(a%b, 1) }

// mul multiplies non-negative a and b, reporting overflow.
func mul(a, b int64) (int64, bool) {
	if a != 0 && b > math.MaxInt64/a {
		return 0, false
	}
	return a * b, true
}
