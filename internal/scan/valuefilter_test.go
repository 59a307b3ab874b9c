package scan

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/planner"
)

// interesting are element and argument values around the places where
// INTEGER/REAL comparisons go wrong when done naively: 2^53, 2^63, the
// int64 limits, zeros, infinities and halves.
var interesting = []float64{0, math.Copysign(0, -1), 0.5, -0.5, 1, -1, 7, 7.5, -7.5, 100, 127, 128, -128, 255, 65535,
	1 << 31, -(1 << 31), 1 << 32, 1 << 53, 1<<53 + 2, -(1 << 53), 1 << 63, -(1 << 63), 1 << 64, 1e300, -1e300,
	math.Inf(1), math.Inf(-1), 0x1p63 - 1024, 0x1p64 - 2048}

var interestingInts = []int64{0, 1, -1, 7, 127, 128, -128, 255, 65535, 1<<31 - 1, -(1 << 31), 1 << 53, 1<<53 + 1, -(1<<53 + 1),
	math.MaxInt64, math.MaxInt64 - 1, math.MinInt64, math.MinInt64 + 1}

// emittedOf is the SQL value the cells table emits for element i of b.
func emittedOf(dt array.DType, b []byte, i int) (Num, bool) {
	switch {
	case dt.IsFloat():
		f := dt.Float64(b, i)
		return Num{F: f, Real: true}, f == f
	case dt == array.U64:
		if u := dt.Uint64(b, i); u > math.MaxInt64 {
			return Num{F: float64(u), Real: true}, true
		}
	}
	return Num{I: dt.Int64(b, i)}, true
}

// holds applies op to CmpNum(x, a): the reference.
func holds(x Num, op planner.Op, a Num) bool {
	c := CmpNum(x, a)
	switch op {
	case planner.OpEQ:
		return c == 0
	case planner.OpLT:
		return c < 0
	case planner.OpLE:
		return c <= 0
	case planner.OpGT:
		return c > 0
	}
	return c >= 0
}

// randomArg is an INTEGER or REAL near an interesting value.
func randomArg(rng *rand.Rand) Num {
	if rng.IntN(2) == 0 {
		i := interestingInts[rng.IntN(len(interestingInts))]
		if d := int64(rng.IntN(5)) - 2; (d > 0 && i < math.MaxInt64-2) || (d < 0 && i > math.MinInt64+2) {
			i += d
		}
		return Num{I: i}
	}
	f := interesting[rng.IntN(len(interesting))]
	switch rng.IntN(3) {
	case 0:
		f = math.Nextafter(f, math.Inf(1))
	case 1:
		f = math.Nextafter(f, math.Inf(-1))
	}
	return Num{F: f, Real: true}
}

// randomElements fills n elements of dt near interesting values (NaN too).
func randomElements(rng *rand.Rand, dt array.DType, n int) []byte {
	b := make([]byte, n*dt.Size())
	for i := 0; i < n; i++ {
		f := interesting[rng.IntN(len(interesting))]
		if rng.IntN(10) == 0 {
			f = math.NaN()
		}
		iv := interestingInts[rng.IntN(len(interestingInts))] + int64(rng.IntN(3)) - 1
		switch dt {
		case array.F64:
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(f))
		case array.F32:
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(f)))
		case array.F16:
			binary.LittleEndian.PutUint16(b[2*i:], uint16(rng.IntN(1<<16))) // every half, NaN and Inf included
		case array.U64:
			u := uint64(iv)
			if rng.IntN(3) == 0 {
				u = 1<<63 + uint64(rng.IntN(4096)) - 2048
			}
			binary.LittleEndian.PutUint64(b[8*i:], u)
		default:
			for k := 0; k < dt.Size(); k++ {
				b[i*dt.Size()+k] = byte(iv >> (8 * k))
			}
		}
	}
	return b
}

// TestValueFilter_matchesCmpNum checks the compiled filter (per element,
// find, gather) and the chunk tests (Excludes, covers) against CmpNum
// term by term, on every dtype.
func TestValueFilter_matchesCmpNum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ops := []planner.Op{planner.OpEQ, planner.OpLT, planner.OpLE, planner.OpGT, planner.OpGE}
	for _, dt := range []array.DType{array.I8, array.I16, array.I32, array.I64, array.U8, array.U16, array.U32, array.U64,
		array.F16, array.F32, array.F64} {
		for round := 0; round < 2000; round++ {
			var terms []ValueTerm
			for k := 1 + rng.IntN(2); k > 0; k-- {
				a := randomArg(rng)
				terms = append(terms, ValueTerm{Op: ops[rng.IntN(len(ops))], Lo: a, Hi: a})
			}
			var f valueFilter
			f.set(dt, terms)
			n := 1 + rng.IntN(8)
			b := randomElements(rng, dt, n)
			st := ChunkStat{}
			first := -1
			var want []bool
			for i := 0; i < n; i++ {
				x, ok := emittedOf(dt, b, i)
				pass := ok
				for _, tm := range terms {
					pass = pass && holds(x, tm.Op, tm.Lo)
				}
				want = append(want, pass)
				if got := f.passes(b, i); got != pass {
					t.Fatalf("%v %+v: element %+v: passes %v, want %v", dt, terms, x, got, pass)
				}
				if pass && first < 0 {
					first = i
				}
				if !ok {
					st.Nulls++
					continue
				}
				if st.Count == 0 || CmpNum(x, st.Min) < 0 {
					st.Min = x
				}
				if st.Count == 0 || CmpNum(x, st.Max) > 0 {
					st.Max = x
				}
				st.Count++
			}
			if k := f.find(b, 0, n); (first < 0 && k != n) || (first >= 0 && k != first) {
				t.Fatalf("%v %+v: find %d, first passing %d", dt, terms, k, first)
			}
			dst := make([]byte, len(b))
			m := f.gather(dst, b, 0, n)
			j := 0
			for i := 0; i < n; i++ {
				if want[i] {
					if string(dst[j*dt.Size():(j+1)*dt.Size()]) != string(b[i*dt.Size():(i+1)*dt.Size()]) {
						t.Fatalf("%v: gather put the wrong element at %d", dt, j)
					}
					j++
				}
			}
			if m != j {
				t.Fatalf("%v %+v: gather %d, want %d", dt, terms, m, j)
			}
			if Excludes(st, terms) && first >= 0 {
				t.Fatalf("%v %+v: stats %+v exclude a chunk with a passing element", dt, terms, st)
			}
			if f.covers(st) {
				for i, w := range want {
					if !w {
						t.Fatalf("%v %+v: stats %+v cover a chunk whose element %d fails", dt, terms, st, i)
					}
				}
			}
		}
	}
}
