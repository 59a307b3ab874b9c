package blosc

import (
	"fmt"
	"testing"
)

// BenchmarkKernels times the filter kernels alone on one 256 KiB block
// (the default block size of a float32 array), bytes per second of block.
func BenchmarkKernels(b *testing.B) {
	const n = 259200
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i * 7 / 3)
	}
	dst := make([]byte, n)
	scratch := make([]byte, n)
	for _, es := range []int{2, 4, 8} {
		b.Run(fmt.Sprintf("unshuffle/es%d", es), func(b *testing.B) {
			b.SetBytes(n)
			for range b.N {
				unshuffle(dst, src, es)
			}
		})
		b.Run(fmt.Sprintf("unbitshuffle/es%d", es), func(b *testing.B) {
			b.SetBytes(n)
			for range b.N {
				unbitshuffle(dst, src, es, 5, scratch)
			}
		})
		b.Run(fmt.Sprintf("unbytedelta/es%d", es), func(b *testing.B) {
			b.SetBytes(n)
			for range b.N {
				unbytedelta(dst, es)
			}
		})
	}
	b.Run("undelta/ref", func(b *testing.B) {
		b.SetBytes(n)
		for range b.N {
			undelta(dst, src, 4)
		}
	})
	b.Run("undelta/first", func(b *testing.B) {
		b.SetBytes(n)
		for range b.N {
			undelta(dst, nil, 4)
		}
	})
}

// BenchmarkByteLoops times the reference byte loops on the same block, for
// comparison with BenchmarkKernels.
func BenchmarkByteLoops(b *testing.B) {
	const n = 259200
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i * 7 / 3)
	}
	dst := make([]byte, n)
	for _, es := range []int{2, 4, 8} {
		b.Run(fmt.Sprintf("unshuffle/es%d", es), func(b *testing.B) {
			b.SetBytes(n)
			for range b.N {
				refUnshuffle(dst, src, es)
			}
		})
		b.Run(fmt.Sprintf("unbytedelta/es%d", es), func(b *testing.B) {
			b.SetBytes(n)
			for range b.N {
				refUnbytedelta(dst, es)
			}
		})
	}
}
