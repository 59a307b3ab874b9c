package fold

import (
	"unsafe"

	"github.com/tetsql/tetsql/array"
)

// FoldSmallBox folds the sub-box [lo, hi) of one chunk payload, every
// axis reduced, into out[g], as FoldGroups(dt, data, extent, lo, hi,
// nil, 0, out[g:g+1]) would, but a box of at most a block's elements
// whose rows are short (the pieces of a coarsened grouping, 5×4×4
// elements) is gathered whole and folded by the block kernels, instead of
// element by element. Results agree with FoldGroups to rounding.
func FoldSmallBox(dt array.DType, data []byte, extent, lo, hi []int64, out *Stats) error {
	var ax [MaxRank]axis
	m, off, empty, err := normalize(&ax, dt, data, extent, lo, hi, nil, 0, 1)
	if err != nil || empty {
		return err
	}
	if m == 0 {
		ax[0], m = axis{n: 1, ps: 1}, 1
	}
	n := int64(1)
	for _, a := range ax[:m] {
		n *= a.n
	}
	p := newPlan(ax[:m], off, 0)
	if !p.push || n > gatherLen {
		drive(dt, data, &p, unsafe.Slice(out, 1))
		return nil
	}
	if n <= smallLen && p.ax[len(p.ax)-1].ps == 1 && nativeLE {
		// Contiguous rows, few elements: a small buffer (Go zeroes
		// stack arrays, and 8 KiB per piece cost more than the fold).
		switch dt {
		case array.F32:
			if smallRows[float32](data, &p, out) {
				return nil
			}
		case array.F64:
			if smallRows[float64](data, &p, out) {
				return nil
			}
		}
	}
	switch dt {
	case array.F32:
		smallFloat[float32](data, &p, out, false)
	case array.F16:
		smallFloat[float32](data, &p, out, true)
	case array.F64:
		smallFloat[float64](data, &p, out, false)
	case array.I8:
		smallInt[int8](data, &p, out)
	case array.U8:
		smallInt[uint8](data, &p, out)
	case array.I16:
		smallInt[int16](data, &p, out)
	case array.U16:
		smallInt[uint16](data, &p, out)
	case array.I32:
		smallInt[int32](data, &p, out)
	case array.U32:
		smallInt[uint32](data, &p, out)
	case array.I64:
		smallInt[int64](data, &p, out)
	case array.U64:
		smallInt[uint64](data, &p, out)
	}
	return nil
}

// gatherBox copies the planned box's elements (at most gatherLen) into
// buf, row by row, and returns them.
func gatherBox[T elem](data []byte, p *plan, buf, row *[gatherLen]T, f16 bool) []T {
	k := 0
	last := len(p.ax) - 1
	r := p.ax[last]
	w := walker{ax: p.ax, skip: last, off: p.off}
	for w.next() {
		bl := blocks[T]{data: data, off: int(w.off), step: int(r.ps), n: int(r.n), span: gatherLen, f16: f16, buf: row}
		for xs := bl.next(); xs != nil; xs = bl.next() {
			k += copy(buf[k:], xs)
		}
	}
	return buf[:k]
}

// smallLen bounds the elements of a box smallRows gathers.
const smallLen = 256

// smallRows folds the planned box, at most smallLen elements in rows
// contiguous in the payload, into out, copying the rows in place views
// give into a small buffer; false (nothing done) when a row cannot be
// viewed in place (misaligned on a CPU without fast unaligned loads).
func smallRows[T float32 | float64](data []byte, p *plan, out *Stats) bool {
	var buf [smallLen]T
	k := 0
	last := len(p.ax) - 1
	r := int(p.ax[last].n)
	w := walker{ax: p.ax, skip: last, off: p.off}
	for w.next() {
		xs, ok := view[T](data, int(w.off), r)
		if !ok {
			return false
		}
		// A loop, not copy: rows of a few elements would each cost a
		// call of memmove.
		dst := buf[k : k+len(xs)]
		for i, x := range xs {
			dst[i] = x
		}
		k += len(xs)
	}
	b := floatBlock(buf[:k], shift(out, buf[:k]))
	merge(out, &b)
	return true
}

func smallFloat[T float32 | float64](data []byte, p *plan, out *Stats, f16 bool) {
	var buf, row [gatherLen]T
	xs := gatherBox(data, p, &buf, &row, f16)
	b := floatBlock(xs, shift(out, xs))
	merge(out, &b)
}

func smallInt[T int8 | uint8 | uint16 | int16 | uint32 | int32 | uint64 | int64](data []byte, p *plan, out *Stats) {
	var buf, row [gatherLen]T
	xs := gatherBox(data, p, &buf, &row, false)
	b := intBlock(xs)
	merge(out, &b)
}
