package scan

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// sqlCmp compares two emitted values as SQLite's ORDER BY does: NULL
// first, then numbers exactly (CmpNum).
func sqlCmp(a Num, an bool, b Num, bn bool) int {
	switch {
	case an && bn:
		return 0
	case an:
		return -1
	case bn:
		return 1
	}
	return CmpNum(a, b)
}

// sqlValueOf is the value the cells table emits for element i of data.
func sqlValueOf(dt array.DType, data []byte, i int) (Num, bool) {
	switch {
	case dt.IsFloat():
		f := dt.Float64(data, i)
		return Num{F: f, Real: true}, f != f
	case dt == array.U64:
		if u := dt.Uint64(data, i); u > math.MaxInt64 {
			return Num{F: float64(u), Real: true}, false
		}
	}
	return Num{I: dt.Int64(data, i)}, false
}

// TestKeysOrderAsSQLite: for every dtype, the key order of random
// elements (with NaN, ±Inf, ±0, extremes and u64 above 2^63) is the
// order SQLite sorts their emitted values in, equal keys are equal values,
// and a key decodes to the emitted value.
func TestKeysOrderAsSQLite(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	specials := [][]byte{
		{0, 0, 0, 0, 0, 0, 0, 0}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		{0, 0, 0, 0, 0, 0, 0, 0x80}, {0, 0, 0, 0, 0, 0, 0xf0, 0x7f}, {0, 0, 0, 0, 0, 0, 0xf0, 0xff},
		{0, 0, 0, 0x80, 0, 0, 0, 0}, {0, 0, 0x80, 0x7f, 0, 0, 0, 0}, {0, 0, 0x80, 0xff, 0, 0, 0, 0},
		{0, 0x7c, 0, 0, 0, 0, 0, 0}, {0, 0xfc, 0, 0, 0, 0, 0, 0}, {0, 0x80, 0, 0, 0, 0, 0, 0},
		{0x01, 0x04, 0, 0, 0, 0, 0, 0x80}, {0xff, 0xf7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
	}
	for _, dt := range []array.DType{array.F16, array.F32, array.F64, array.I16, array.I32, array.I64,
		array.U8, array.U16, array.U32, array.U64} {
		size := dt.Size()
		const n = 400
		data := make([]byte, n*size)
		for i := range n {
			b := data[i*size : (i+1)*size]
			if i < len(specials) {
				copy(b, specials[i])
				continue
			}
			for j := range b {
				b[j] = byte(rng.IntN(256))
			}
			if rng.IntN(3) == 0 && i > 0 { // ties
				copy(b, data[(i-1)*size:i*size])
			}
		}
		keys := make([]uint64, n)
		encodeKeys(dt, data, 0, keys, 0)
		for i := range n {
			vi, ni := sqlValueOf(dt, data, i)
			if v, null := keyValue(dt, keys[i]); null != ni || !null && CmpNum(v, vi) != 0 {
				t.Fatalf("%s element %x: key %x decodes to %v %v, want %v %v", dt, data[i*size:(i+1)*size], keys[i], v, null, vi, ni)
			}
			for j := range n {
				vj, nj := sqlValueOf(dt, data, j)
				want := sqlCmp(vi, ni, vj, nj)
				got := 0
				if keys[i] < keys[j] {
					got = -1
				} else if keys[i] > keys[j] {
					got = 1
				}
				if got != want {
					t.Fatalf("%s: %v vs %v: keys compare %d, SQLite %d", dt, vi, vj, got, want)
				}
			}
			if !ni {
				if k := numKey(dt, vi); k != keys[i] {
					t.Fatalf("%s: numKey(%v) = %x, element key %x", dt, vi, k, keys[i])
				}
			}
		}
	}
}

// TestTopKBudgetSizes: the sizes a top-k budgets are those of its slices.
func TestTopKBudgetSizes(t *testing.T) {
	if s := reflect.TypeFor[topEntry]().Size(); s != TopKEntryBytes {
		t.Errorf("topEntry is %d bytes, TopKEntryBytes %d", s, TopKEntryBytes)
	}
	if s := reflect.TypeFor[chunkBound]().Size(); s != TopKChunkBytes {
		t.Errorf("chunkBound is %d bytes, TopKChunkBytes %d", s, TopKChunkBytes)
	}
}
