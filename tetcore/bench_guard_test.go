package tetcore_test

import "testing"

// BenchmarkGuardedCopy copies a small run of a mapped chunk under Guard,
// the fixed cost a scan pays per run of elements it reads.
func BenchmarkGuardedCopy(b *testing.B) {
	f, _ := readBench(b)
	ds := f.Datasets[0]
	view, err := f.ReadChunk(ds, &ds.Chunks()[0], nil)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]byte, 64)
	b.ReportAllocs()
	for b.Loop() {
		if n, err := f.Copy(dst, view[4096:]); n != len(dst) || err != nil {
			b.Fatal(n, err)
		}
	}
}

// BenchmarkPin is a statement's Acquire and Release of an opened file
// (one stat call for the change check, and the pin count).
func BenchmarkPin(b *testing.B) {
	f, _ := readBench(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := f.Acquire(); err != nil {
			b.Fatal(err)
		}
		f.Release()
	}
}
