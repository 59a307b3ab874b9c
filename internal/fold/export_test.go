package fold

// ForcePortable makes every read go through the portable little-endian
// decoder, as on a big-endian host, and every float block through the
// portable kernels, until restore is called. Tests using it must not run
// in parallel.
func ForcePortable() (restore func()) {
	oldLE, oldKernel, oldUnaligned := nativeLE, kernel, unalignedOK
	nativeLE, kernel, unalignedOK = false, kernPortable, false
	return func() { nativeLE, kernel, unalignedOK = oldLE, oldKernel, oldUnaligned }
}

// ForceAligned makes misaligned payloads go through the copying path,
// as on CPUs without fast unaligned loads, until restore is called. Not
// for parallel tests.
func ForceAligned() (restore func()) {
	old := unalignedOK
	unalignedOK = false
	return func() { unalignedOK = old }
}

// Kernels lists the kernel levels this CPU runs, fastest first (the
// last is the portable loop).
func Kernels() []int {
	var ls []int
	for l := bestKernel; l >= kernPortable; l-- {
		ls = append(ls, l)
	}
	return ls
}

// KernelName names a level for test output.
func KernelName(level int) string {
	return [...]string{"portable", "avx2", "avx512"}[level]
}

// UseKernel makes the drivers fold float blocks with the kernels up to
// level until restore is called. Not for parallel tests.
func UseKernel(level int) (restore func()) {
	old := kernel
	kernel = level
	return func() { kernel = old }
}

// FoldFloatBlock folds xs ([]float32 or []float64, at most
// floatBlockLen) as one block with the shift the drivers would choose,
// with the kernels up to level.
func FoldFloatBlock(xs any, level int) Stats {
	var empty Stats
	switch v := xs.(type) {
	case []float32:
		return f32Block(v, shift(&empty, v), level)
	case []float64:
		return f64Block(v, shift(&empty, v), level)
	}
	panic("FoldFloatBlock: not a float slice")
}

// WidenF16 converts halves to float32 as the f16 reader does at level.
func WidenF16(dst []float32, hs []uint16, level int) { widenF16(dst, hs, level) }
