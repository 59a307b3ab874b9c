package fold_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tetsql/tetsql/internal/fold"
)

// BenchmarkQuantile selects the median of one day's map (65,160 f32
// values), the core of SELECT median FROM t_agg WHERE time = d.
func BenchmarkQuantile(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]float32, 181*360)
	for i := range src {
		src[i] = float32(250 + 40*math.Sin(float64(i)/5000) + rng.NormFloat64())
	}
	xs := make([]float32, len(src))
	b.SetBytes(int64(len(src) * 4))
	for b.Loop() {
		copy(xs, src)
		fold.Quantile(xs, 0.5)
	}
}
