package fold_test

import (
	"encoding/binary"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/tetcore"
)

// encode writes vals as a little-endian payload of dt (floats converted,
// integers from int64; u64 values above 2^63−1 via encodeU64).
func encode(dt array.DType, vals ...float64) []byte {
	b := make([]byte, len(vals)*dt.Size())
	for i, v := range vals {
		put(dt, b, i, v)
	}
	return b
}

func put(dt array.DType, b []byte, i int, v float64) {
	switch dt {
	case array.F32:
		binary.LittleEndian.PutUint32(b[i*4:], math.Float32bits(float32(v)))
	case array.F64:
		binary.LittleEndian.PutUint64(b[i*8:], math.Float64bits(v))
	case array.F16:
		binary.LittleEndian.PutUint16(b[i*2:], tetcore.Float32ToHalf(float32(v)))
	case array.U8:
		b[i] = uint8(int64(v))
	case array.U16, array.I16:
		binary.LittleEndian.PutUint16(b[i*2:], uint16(int64(v)))
	case array.U32, array.I32:
		binary.LittleEndian.PutUint32(b[i*4:], uint32(int64(v)))
	default:
		binary.LittleEndian.PutUint64(b[i*8:], uint64(int64(v)))
	}
}

// ref is a naive high-precision reference for one group.
type ref struct {
	count, nulls   int64
	posInf, negInf int64
	sum            *big.Float // finite elements
	abs            float64    // Σ|x| of finite elements
	isum           *big.Int   // integer dtypes
	min, max       float64
	imin, imax     *big.Int
	vals           []float64 // for the variance
}

func newRef() *ref {
	return &ref{sum: new(big.Float).SetPrec(2200), isum: new(big.Int),
		min: math.Inf(1), max: math.Inf(-1)}
}

// add folds element i of the payload, decoded by tetcore (independent of
// package fold).
func (r *ref) add(dt array.DType, data []byte, i int) {
	if !dt.IsFloat() {
		var v *big.Int
		if dt == array.U64 {
			v = new(big.Int).SetUint64(dt.Uint64(data, i))
		} else {
			v = big.NewInt(dt.Int64(data, i))
		}
		r.isum.Add(r.isum, v)
		if r.imin == nil || v.Cmp(r.imin) < 0 {
			r.imin = v
		}
		if r.imax == nil || v.Cmp(r.imax) > 0 {
			r.imax = v
		}
	}
	x := dt.Float64(data, i)
	switch {
	case math.IsNaN(x):
		r.nulls++
		return
	case math.IsInf(x, 1):
		r.posInf++
	case math.IsInf(x, -1):
		r.negInf++
	default:
		if dt.IsFloat() {
			r.sum.Add(r.sum, big.NewFloat(x))
		}
		r.abs += math.Abs(x)
		r.vals = append(r.vals, x)
	}
	r.count++
	r.min, r.max = min(r.min, x), max(r.max, x)
}

// check compares a Stats with the reference.
func (r *ref) check(t *testing.T, dt array.DType, what string, s fold.Stats) {
	t.Helper()
	if s.Count() != r.count || s.NullCount() != r.nulls {
		t.Fatalf("%s %v: count %d null %d, want %d %d", what, dt, s.Count(), s.NullCount(), r.count, r.nulls)
	}
	sum, ok := s.Sum()
	if r.count == 0 {
		if ok {
			t.Fatalf("%s %v: sum of nothing = %v, want NULL", what, dt, sum)
		}
		return
	}
	if !dt.IsFloat() {
		r.checkInt(t, dt, what, s)
	}
	exact := new(big.Float).SetPrec(2200).Set(r.sum)
	if !dt.IsFloat() {
		exact.SetInt(r.isum)
	}
	want, _ := exact.Float64()
	hasInf := r.posInf > 0 || r.negInf > 0
	switch {
	case r.posInf > 0 && r.negInf > 0:
		if ok {
			t.Fatalf("%s %v: sum %v, want NULL (+Inf and -Inf)", what, dt, sum)
		}
	case hasInf:
		if wantInf := math.Inf(int(r.posInf - r.negInf)); !ok || sum != wantInf {
			t.Fatalf("%s %v: sum %v, want %v", what, dt, sum, wantInf)
		}
	case !ok || math.Abs(sum-want) > 1e-12*math.Abs(want)+1e-300:
		t.Fatalf("%s %v: sum %v (ok %v), want %v", what, dt, sum, ok, want)
	}
	if mn, _ := s.Min(); mn != r.min {
		t.Fatalf("%s %v: min %v, want %v", what, dt, mn, r.min)
	}
	if mx, _ := s.Max(); mx != r.max {
		t.Fatalf("%s %v: max %v, want %v", what, dt, mx, r.max)
	}
	mean, mok := s.Mean()
	v, vok := s.Var()
	if hasInf {
		if vok {
			t.Fatalf("%s %v: var %v with Inf elements, want NULL", what, dt, v)
		}
		return
	}
	wantMean := want / float64(r.count)
	if !mok || math.Abs(mean-wantMean) > 1e-12*math.Abs(wantMean)+1e-300 {
		t.Fatalf("%s %v: mean %v, want %v", what, dt, mean, wantMean)
	}
	wantVar := r.variance(exact)
	if !vok || math.Abs(v-wantVar) > 1e-9*wantVar+1e-18*wantMean*wantMean+1e-300 {
		t.Fatalf("%s %v: var %v (ok %v), want %v (n=%d, mean %v)", what, dt, v, vok, wantVar, r.count, wantMean)
	}
	if sd, _ := s.Std(); math.Abs(sd-math.Sqrt(wantVar)) > 1e-9*math.Sqrt(wantVar)+1e-9*math.Abs(wantMean)+1e-300 {
		t.Fatalf("%s %v: std %v, want %v", what, dt, sd, math.Sqrt(wantVar))
	}
}

func (r *ref) checkInt(t *testing.T, dt array.DType, what string, s fold.Stats) {
	t.Helper()
	es, ok := s.ExactSum()
	if !ok || !s.IsInt() || es.Big().Cmp(r.isum) != 0 {
		t.Fatalf("%s %v: exact sum %v, want %v", what, dt, es, r.isum)
	}
	is, ok := s.IntSum()
	if ok != r.isum.IsInt64() || (ok && is != r.isum.Int64()) {
		t.Fatalf("%s %v: IntSum %d %v, want %v", what, dt, is, ok, r.isum)
	}
	for _, c := range []struct {
		name string
		get  func() (int64, bool)
		want *big.Int
	}{{"min", s.IntMin, r.imin}, {"max", s.IntMax, r.imax}} {
		v, ok := c.get()
		if ok != c.want.IsInt64() || (ok && v != c.want.Int64()) {
			t.Fatalf("%s %v: Int%s %d %v, want %v", what, dt, c.name, v, ok, c.want)
		}
	}
}

// variance is the population variance of the finite elements, two-pass
// in big.Float.
func (r *ref) variance(sum *big.Float) float64 {
	const prec = 300
	n := new(big.Float).SetPrec(prec).SetInt64(int64(len(r.vals)))
	mean := new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(prec).Set(sum), n)
	m2 := new(big.Float).SetPrec(prec)
	d := new(big.Float).SetPrec(prec)
	for _, x := range r.vals {
		d.Sub(big.NewFloat(x), mean)
		m2.Add(m2, d.Mul(d, d))
	}
	v, _ := m2.Quo(m2, n).Float64()
	return v
}

// randPayload fills n elements of dt: integers over their whole range,
// floats with a random offset and scale, with NaN and ±Inf at rate pSpecial.
func randPayload(rng *rand.Rand, dt array.DType, n int, pSpecial float64) []byte {
	b := make([]byte, n*dt.Size())
	if !dt.IsFloat() {
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	off := []float64{0, 1, -3, 1e3, 1e6}[rng.IntN(5)]
	if dt == array.F16 && off > 1e4 {
		off = 100 // f16 overflows at 65504
	}
	scale := []float64{1, 1e-3, 10, 100}[rng.IntN(4)]
	for i := range n {
		v := off + scale*rng.NormFloat64()
		if rng.Float64() < pSpecial {
			v = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)]
		}
		put(dt, b, i, v)
	}
	return b
}

// allDTypes lists every dtype tetcore files carry, in tetcore's tag order.
var allDTypes = []array.DType{array.F32, array.F64, array.I32, array.I64, array.U8, array.U16, array.I16, array.U32, array.F16, array.U64}
