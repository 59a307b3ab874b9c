package vtab_test

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
	"github.com/tetsql/tetsql/vtab"
)

// TestReadAhead_boundedByBytes: read-ahead of 8 chunks of 1 MiB with a
// 2 MiB budget decodes at most 2 chunks ahead, so a scan allocates about
// 3 chunks, not 9 (before, read_ahead=8 on 1 GiB chunks reached 9 GiB).
// Not parallel: it reads the process's allocation counter.
func TestReadAhead_boundedByBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ra.tet")
	const chunk = 128 << 10 // f64 elements: 1 MiB decoded
	want := writeF64(t, path, 12*chunk, chunk, tetcore.CodecZstd, func(i int64) float64 { return float64(i % 1000) })
	db, sess := openDB(t, map[string]string{"a": path})
	// Set (8) and automatic (0: 2 chunks per goroutine, 4 goroutines
	// here) read-ahead are bounded alike.
	for _, ra := range []int{8, 0} {
		sess.ReadAhead, sess.DecodeParallelism = ra, 4
		for _, tc := range []struct {
			budget   int64
			maxAlloc uint64
		}{
			{2 << 20, 5 << 20},   // 2 ahead + 1: ~3 MiB
			{512 << 10, 3 << 20}, // a chunk exceeds the budget: no read-ahead, 1 buffer
			{0, 12 << 20},        // default 256 MiB: all 8 ahead, ~9 MiB
		} {
			sess.ReadAheadBytes = tc.budget
			sumOf(db, "a") // warm up: decoders, statement cache
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			got, err := sumOf(db, "a")
			runtime.ReadMemStats(&after)
			if err != nil || got != want {
				t.Fatalf("read-ahead %d, budget %d: sum %v %v, want %v", ra, tc.budget, got, err, want)
			}
			n := after.TotalAlloc - before.TotalAlloc
			t.Logf("read-ahead %d, budget %d: %.1f MiB allocated by the scan", ra, tc.budget, float64(n)/(1<<20))
			if n > tc.maxAlloc {
				t.Errorf("read-ahead %d, budget %d: scan allocated %d bytes, want at most %d", ra, tc.budget, n, tc.maxAlloc)
			}
		}
	}
}

// TestReadAhead_panicBecomesError: a panic on a read-ahead goroutine
// (which SQLite's thread cannot recover) fails the scan with an internal
// error instead of ending the process; the next scan works.
func TestReadAhead_panicBecomesError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ra.tet")
	const chunk = 4096
	want := writeF64(t, path, 8*chunk, chunk, tetcore.CodecZstd, func(i int64) float64 { return float64(i % 7) })
	db, sess := openDB(t, map[string]string{"a": path})
	sess.ReadAhead = 4
	restore := vtab.PanicAt("read-ahead worker")
	_, err := sumOf(db, "a")
	restore()
	if err == nil {
		t.Fatal("scan succeeded with a panicking read-ahead worker")
	}
	serr := sess.TakeError()
	if msg := err.Error() + " / " + errString(serr); !strings.Contains(msg, "internal error in read-ahead worker") {
		t.Fatalf("error %q, want an internal error of the read-ahead worker", msg)
	}
	if serr != nil && !errors.Is(serr, vtab.ErrInternal) {
		t.Fatalf("session error %v does not match ErrInternal", serr)
	}
	if got, err := sumOf(db, "a"); err != nil || got != want {
		t.Fatalf("after the panic: sum %v %v, want %v", got, err, want)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
