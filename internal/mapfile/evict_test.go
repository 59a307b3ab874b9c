package mapfile_test

import (
	"bytes"
	"os"
	"testing"
)

// TestEvictRange_dataStaysReadable: after any eviction, including ranges
// past the end, inverted, empty and unaligned ones, the mapping still
// reads as the file.
func TestEvictRange_dataStaysReadable(t *testing.T) {
	page := uint64(os.Getpagesize())
	want := pattern(int(5*page + 123))
	f := open(t, writeTemp(t, want))
	size := uint64(len(want))
	for _, r := range []struct{ lo, hi uint64 }{
		{0, size},
		{0, 1 << 62},
		{page, 3 * page},
		{1, size - 1},
		{size, 1 << 62},
		{1 << 62, 1 << 63},
		{3 * page, page}, // inverted
		{2 * page, 2 * page},
		{^uint64(0) - page, ^uint64(0)}, // rounding up must not wrap to 0
	} {
		f.EvictRange(r.lo, r.hi)
		if got := snapshot(t, f); !bytes.Equal(got, want) {
			t.Fatalf("after EvictRange(%d, %d) the mapping differs from the file", r.lo, r.hi)
		}
	}
}

// TestEvictRange_afterClose: with the mapping gone, EvictRange does
// nothing (and does not touch memory that may be reused).
func TestEvictRange_afterClose(t *testing.T) {
	f := open(t, writeTemp(t, pattern(4*os.Getpagesize())))
	f.Close()
	f.EvictRange(0, 1<<62)
}
