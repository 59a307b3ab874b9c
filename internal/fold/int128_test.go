package fold_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/tetsql/tetsql/internal/fold"
)

func TestInt128(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	two128 := new(big.Int).Lsh(big.NewInt(1), 128)
	wrap := func(b *big.Int) *big.Int { // to the signed 128-bit range
		b.Mod(b, two128)
		if b.Bit(127) == 1 {
			b.Sub(b, two128)
		}
		return b
	}
	special := []fold.Int128{{}, {Hi: -1, Lo: math.MaxUint64}, {Hi: math.MinInt64}, {Hi: math.MaxInt64, Lo: math.MaxUint64},
		fold.Int128FromInt64(math.MinInt64), fold.Int128FromInt64(math.MaxInt64), fold.Int128FromUint64(math.MaxUint64),
		{Hi: 0, Lo: 1<<53 + 1}, {Hi: 1, Lo: 1 << 11}, {Hi: 1, Lo: 1<<11 + 1}, {Hi: -2, Lo: 1 << 63}}
	for i := range 20000 {
		var x, y fold.Int128
		if i < len(special)*len(special) {
			x, y = special[i/len(special)], special[i%len(special)]
		} else {
			x = fold.Int128{Hi: int64(rng.Uint64()) >> rng.IntN(64), Lo: rng.Uint64()}
			y = fold.Int128{Hi: int64(rng.Uint64()) >> rng.IntN(64), Lo: rng.Uint64() >> rng.IntN(64)}
		}
		bx, by := x.Big(), y.Big()
		if got, want := x.Add(y).Big(), wrap(new(big.Int).Add(bx, by)); got.Cmp(want) != 0 {
			t.Fatalf("%v + %v = %v, want %v", x, y, got, want)
		}
		if got, want := x.Sub(y).Big(), wrap(new(big.Int).Sub(bx, by)); got.Cmp(want) != 0 {
			t.Fatalf("%v - %v = %v, want %v", x, y, got, want)
		}
		if x.Cmp(y) != bx.Cmp(by) {
			t.Fatalf("cmp(%v, %v) = %d", x, y, x.Cmp(y))
		}
		if v, ok := x.Int64(); ok != bx.IsInt64() || (ok && v != bx.Int64()) {
			t.Fatalf("%v.Int64() = %d %v", x, v, ok)
		}
		want, _ := new(big.Float).SetInt(bx).Float64() // nearest, ties to even
		if got := x.Float64(); got != want {
			t.Fatalf("%v.Float64() = %v, want %v", x, got, want)
		}
		if x.String() != bx.String() {
			t.Fatalf("String %s vs %s", x, bx)
		}
	}
}
