package fold

// ForcePortable makes every read go through the portable little-endian
// decoder, as on a big-endian host, and every float block through the
// portable kernels, until restore is called. Tests using it must not run
// in parallel.
func ForcePortable() (restore func()) {
	oldLE, oldSIMD, oldUnaligned := nativeLE, useSIMD, unalignedOK
	nativeLE, useSIMD, unalignedOK = false, false, false
	return func() { nativeLE, useSIMD, unalignedOK = oldLE, oldSIMD, oldUnaligned }
}

// ForceAligned makes misaligned payloads go through the copying path,
// as on CPUs without fast unaligned loads, until restore is called. Not
// for parallel tests.
func ForceAligned() (restore func()) {
	old := unalignedOK
	unalignedOK = false
	return func() { unalignedOK = old }
}

// ForceScalar sends float blocks through the portable kernels (reads
// stay in place) until restore is called. Not for parallel tests.
func ForceScalar() (restore func()) {
	old := useSIMD
	useSIMD = false
	return func() { useSIMD = old }
}

// SIMD reports whether the assembly kernels are in use.
func SIMD() bool { return useSIMD }

// FoldFloatBlock folds xs ([]float32 or []float64, at most
// floatBlockLen) as one block with the shift the drivers would choose,
// through the assembly kernels if simd is set (and available).
func FoldFloatBlock(xs any, simd bool) Stats {
	simd = simd && useSIMD
	var empty Stats
	switch v := xs.(type) {
	case []float32:
		return f32Block(v, shift(&empty, v), simd)
	case []float64:
		return f64Block(v, shift(&empty, v), simd)
	}
	panic("FoldFloatBlock: not a float slice")
}
