package fold

import "github.com/tetsql/tetsql/array"

// minRun is the shortest run along a reduced axis that is folded with the
// block kernels; shorter runs (and boxes whose every axis is a group key)
// are pushed element by element into their groups instead.
const minRun = 16

// plan says how to walk a normalized box (axes outer→inner, at least
// one): the row axis is walked inside, every position of the other axes
// outside. Two strategies:
//
//   - runs (push false): the row is the innermost reduced axis; each row
//     (contiguous when it is the last axis, strided otherwise) is folded
//     by the block kernels and merged into its one group.
//   - push: the row is the innermost axis; each element is pushed into
//     its own group (a Welford step with a near-exact deviation).
type plan struct {
	ax     []axis
	row    int
	push   bool
	off, g int64 // payload offset and group of the corner
}

func newPlan(ax []axis, off, g int64) plan {
	p := plan{ax: ax, row: len(ax) - 1, push: true, off: off, g: g}
	for i := len(ax) - 1; i >= 0; i-- {
		if ax[i].gs == 0 {
			if ax[i].n >= minRun {
				p.row, p.push = i, false
			}
			break
		}
	}
	return p
}

// walker visits every position of the axes other than skip, row-major.
type walker struct {
	ax      []axis
	skip    int
	idx     [MaxRank]int64
	off, g  int64
	started bool
}

// next advances to the next position (the first call yields the corner)
// and reports whether there is one.
func (w *walker) next() bool {
	if !w.started {
		w.started = true
		return true
	}
	for d := len(w.ax) - 1; d >= 0; d-- {
		if d == w.skip {
			continue
		}
		a := &w.ax[d]
		w.idx[d]++
		w.off += a.ps
		w.g += a.gs
		if w.idx[d] < a.n {
			return true
		}
		w.idx[d] = 0
		w.off -= a.ps * a.n
		w.g -= a.gs * a.n
	}
	return false
}

// drive folds the planned box of a payload of dt into out.
func drive(dt array.DType, data []byte, p *plan, out []Stats) {
	switch dt {
	case array.F32:
		driveFloat[float32](data, p, out, false)
	case array.F16:
		driveFloat[float32](data, p, out, true)
	case array.F64:
		driveFloat[float64](data, p, out, false)
	case array.I8:
		driveInt[int8](data, p, out)
	case array.U8:
		driveInt[uint8](data, p, out)
	case array.U16:
		driveInt[uint16](data, p, out)
	case array.I16:
		driveInt[int16](data, p, out)
	case array.U32:
		driveInt[uint32](data, p, out)
	case array.I32:
		driveInt[int32](data, p, out)
	case array.U64:
		driveInt[uint64](data, p, out)
	case array.I64:
		driveInt[int64](data, p, out)
	}
}

func driveFloat[T float32 | float64](data []byte, p *plan, out []Stats, f16 bool) {
	var buf [gatherLen]T
	r := p.ax[p.row]
	w := walker{ax: p.ax, skip: p.row, off: p.off, g: p.g}
	for w.next() {
		bl := blocks[T]{data: data, off: int(w.off), step: int(r.ps), n: int(r.n), span: floatBlockLen, f16: f16, buf: &buf}
		if p.push {
			g, gs := int(w.g), int(r.gs)
			for xs := bl.next(); xs != nil; xs = bl.next() {
				for _, x := range xs {
					pushFloat(&out[g], float64(x))
					g += gs
				}
			}
			continue
		}
		acc := &out[w.g]
		for xs := bl.next(); xs != nil; xs = bl.next() {
			b := floatBlock(xs, shift(acc, xs))
			merge(acc, &b)
		}
	}
}

func driveInt[T int8 | uint8 | uint16 | int16 | uint32 | int32 | uint64 | int64](data []byte, p *plan, out []Stats) {
	var buf [gatherLen]T
	r := p.ax[p.row]
	w := walker{ax: p.ax, skip: p.row, off: p.off, g: p.g}
	for w.next() {
		bl := blocks[T]{data: data, off: int(w.off), step: int(r.ps), n: int(r.n), span: blockLen, buf: &buf}
		if p.push {
			g, gs := int(w.g), int(r.gs)
			for xs := bl.next(); xs != nil; xs = bl.next() {
				for _, x := range xs {
					v := wideInt(x)
					h, l := v.doubleDouble()
					pushInt(&out[g], v, h, l)
					g += gs
				}
			}
			continue
		}
		acc := &out[w.g]
		for xs := bl.next(); xs != nil; xs = bl.next() {
			b := intBlock(xs)
			merge(acc, &b)
		}
	}
}
