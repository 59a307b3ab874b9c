package fold_test

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/fold"
)

var benchDTypes = []array.DType{array.F32, array.F64, array.I16, array.U8, array.F16, array.I32, array.I64}

// benchChunk is a full 256×256 chunk of random data.
func benchChunk(dt array.DType) ([]byte, []int64) {
	rng := rand.New(rand.NewPCG(9, 10))
	return randPayload(rng, dt, 256*256, 0), []int64{256, 256}
}

// loop runs fn b.N times and reports, besides ns/op and MB/s (wall
// clock), "cpuMB/s": throughput per second of the thread's own CPU time,
// which stays meaningful on a machine shared with other work.
func loop(b *testing.B, bytes int, fn func() error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	c0, ok := threadCPU()
	for b.Loop() {
		if err := fn(); err != nil {
			b.Fatal(err)
		}
	}
	if c1, _ := threadCPU(); ok && c1 > c0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/(c1-c0).Seconds()/1e6, "cpuMB/s")
	}
}

func BenchmarkFoldBox(b *testing.B) {
	for _, dt := range benchDTypes {
		b.Run(dt.String(), func(b *testing.B) {
			data, ext := benchChunk(dt)
			lo := []int64{0, 0}
			loop(b, len(data), func() error {
				_, err := fold.FoldBox(dt, data, ext, lo, ext)
				return err
			})
		})
	}
}

// BenchmarkFoldGroups keeps one axis of the chunk: 256 groups of 256.
func BenchmarkFoldGroups(b *testing.B) {
	for _, keep := range []struct {
		name   string
		stride []int64
	}{{"keep0", []int64{1, 0}}, {"keep1", []int64{0, 1}}} {
		for _, dt := range benchDTypes {
			b.Run(keep.name+"/"+dt.String(), func(b *testing.B) {
				data, ext := benchChunk(dt)
				lo := []int64{0, 0}
				out := make([]fold.Stats, 256)
				loop(b, len(data), func() error {
					return fold.FoldGroups(dt, data, ext, lo, ext, keep.stride, 0, out)
				})
			})
		}
	}
}

// BenchmarkFoldGroups_keepAll pushes every element into its own group.
func BenchmarkFoldGroups_keepAll(b *testing.B) {
	for _, dt := range []array.DType{array.F32, array.U8} {
		b.Run(dt.String(), func(b *testing.B) {
			data, ext := benchChunk(dt)
			lo := []int64{0, 0}
			stride, groups := fold.Strides(ext, []bool{true, true})
			out := make([]fold.Stats, groups)
			loop(b, len(data), func() error {
				return fold.FoldGroups(dt, data, ext, lo, ext, stride, 0, out)
			})
		})
	}
}

// BenchmarkFoldBox_memory folds a 64 MiB f32 array (16 MiB elements,
// larger than L2) as 256 chunk-sized runs with each vector kernel level
// the CPU runs: the kernels' speed from memory, the bound of whole-array
// aggregates.
func BenchmarkFoldBox_memory(b *testing.B) {
	const n, run = 1 << 24, 1 << 16
	data := make([]byte, 4*n)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < len(data); i += 4 {
		copy(data[i:], encode(array.F32, rng.NormFloat64()))
	}
	ext := []int64{run}
	lo := []int64{0}
	for _, level := range fold.Kernels()[:len(fold.Kernels())-1] {
		b.Run(fold.KernelName(level), func(b *testing.B) {
			defer fold.UseKernel(level)()
			loop(b, len(data), func() error {
				for off := 0; off < len(data); off += 4 * run {
					if _, err := fold.FoldBox(array.F32, data[off:off+4*run], ext, lo, ext); err != nil {
						return err
					}
				}
				return nil
			})
		})
	}
}

// BenchmarkFoldBox_kernels folds a 256² f32 chunk (in cache) with each
// kernel level the CPU runs.
func BenchmarkFoldBox_kernels(b *testing.B) {
	data, ext := benchChunk(array.F32)
	lo := []int64{0, 0}
	for _, level := range fold.Kernels() {
		b.Run(fold.KernelName(level), func(b *testing.B) {
			defer fold.UseKernel(level)()
			loop(b, len(data), func() error {
				_, err := fold.FoldBox(array.F32, data, ext, lo, ext)
				return err
			})
		})
	}
}
