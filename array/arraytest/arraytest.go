// Package arraytest provides the conformance test of the array model: a
// format package calls [Check] from its own tests on its own files, and
// every format is then held to the same contract, the one package array
// documents: sane geometry, chunks that decode the same however they are
// read, errors (not panics) for bad chunk ids, concurrent reads, Close,
// and the optional capabilities a source or array offers.
//
// Run it under the race detector (go test -race): the concurrent-read
// check is only as good as the detector watching it.
package arraytest

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// Options add expectations a fixture can state beyond the contract.
type Options struct {
	// Arrays, when not nil, lists the names the source must have, in order.
	Arrays []string
	// Value, when set, gives the expected element of the named array at
	// global coordinates, as float64 (compared with DType.Float64; NaN
	// matches NaN). ok false means "no expectation here".
	Value func(name string, coords []int64) (v float64, ok bool)
	// Reference, when set, decodes chunk id of the named array by a slow
	// path of the format's own, independent of ReadChunk (a fresh decoder,
	// a plain copy); Check compares every chunk with it.
	Reference func(name string, id int64) ([]byte, error)
	// MaxBytes bounds the decoded bytes per array that Check assembles
	// into a whole array to cross-check chunk boxes (default 64 MiB);
	// larger arrays skip that step.
	MaxBytes int64
}

// Check opens sources with open (once per step, so that each step starts
// from a fresh, idle source) and runs every conformance check on them as
// subtests of t.
func Check(t *testing.T, open func() (array.Source, error), o Options) {
	t.Helper()
	if o.MaxBytes == 0 {
		o.MaxBytes = 64 << 20
	}
	src := mustOpen(t, open)
	defer func() {
		if err := src.Close(); err != nil {
			t.Errorf("Close while idle: %v", err)
		}
	}()
	if !t.Run("geometry", func(t *testing.T) { checkGeometry(t, src, o) }) {
		return // the other checks trust the geometry
	}
	t.Run("chunks", func(t *testing.T) {
		for _, a := range src.Arrays() {
			checkChunks(t, src, a, o)
		}
	})
	t.Run("bad ids", func(t *testing.T) {
		for _, a := range src.Arrays() {
			checkBadIDs(t, a)
		}
	})
	t.Run("listing", func(t *testing.T) {
		for _, a := range src.Arrays() {
			checkLister(t, a)
		}
	})
	t.Run("concurrent", func(t *testing.T) { checkConcurrent(t, src, o) })
	t.Run("capabilities", func(t *testing.T) { checkCaps(t, src) })
	t.Run("close", func(t *testing.T) { checkClose(t, open) })
}

func mustOpen(t *testing.T, open func() (array.Source, error)) array.Source {
	t.Helper()
	src, err := open()
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	if src == nil {
		t.Fatal("open returned a nil Source and no error")
	}
	return src
}

// checkGeometry holds every Info to its own Validate (on a copy, so the
// source's Info is only read) and the derived counts to the shape.
func checkGeometry(t *testing.T, src array.Source, o Options) {
	arrs := src.Arrays()
	_ = src.Attrs()
	seen := map[string]bool{}
	var names []string
	for i, a := range arrs {
		if a == nil {
			t.Fatalf("array %d is nil", i)
		}
		in := a.Info()
		if in == nil || a.Info() != in {
			t.Fatalf("array %d: Info is nil or not the same pointer on every call", i)
		}
		names = append(names, in.Name)
		if seen[in.Name] {
			t.Errorf("array name %q appears twice", in.Name)
		}
		seen[in.Name] = true
		cp := *in
		if err := cp.Validate(); err != nil {
			t.Errorf("array %q: Validate: %v", in.Name, err)
			continue
		}
		if fmt.Sprint(cp.Grid()) != fmt.Sprint(in.Grid()) || cp.ChunkCount() != in.ChunkCount() || cp.Elements() != in.Elements() {
			t.Errorf("array %q: the source handed out an Info it did not Validate (grid %v, %d chunks, %d elements; want %v, %d, %d)",
				in.Name, in.Grid(), in.ChunkCount(), in.Elements(), cp.Grid(), cp.ChunkCount(), cp.Elements())
			continue
		}
		count := int64(1)
		for a, n := range in.Shape {
			c := in.ChunkShape[a]
			if g := in.Grid()[a]; g != (n+c-1)/c {
				t.Errorf("array %q axis %d: grid %d for size %d and chunk %d", in.Name, a, g, n, c)
			}
			count *= in.Grid()[a]
			_ = in.DimName(a)
		}
		if count != in.ChunkCount() {
			t.Errorf("array %q: ChunkCount %d, product of the grid %d", in.Name, in.ChunkCount(), count)
		}
	}
	if o.Arrays != nil && fmt.Sprint(names) != fmt.Sprint(o.Arrays) {
		t.Errorf("arrays %q, want %q", names, o.Arrays)
	}
}

// checkBadIDs: positions outside the grid are absent, and reading them is
// an error, never a panic.
func checkBadIDs(t *testing.T, a array.Array) {
	in := a.Info()
	for _, id := range []int64{-1, in.ChunkCount(), in.ChunkCount() + 1, math.MaxInt64, math.MinInt64} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("array %q chunk %d: panic %v", in.Name, id, r)
				}
			}()
			if c, ok := a.Chunk(id); ok {
				t.Errorf("array %q: Chunk(%d) = %+v, ok; want absent", in.Name, id, c)
			}
			for _, dst := range [][]byte{nil, make([]byte, 0, 64)} {
				if b, err := a.ReadChunk(id, dst); err == nil {
					t.Errorf("array %q: ReadChunk(%d) = %d bytes, no error", in.Name, id, len(b))
				}
			}
		}()
	}
}

// equalValue compares an element with its expectation; NaN matches NaN.
func equalValue(got, want float64) bool {
	return got == want || (math.IsNaN(got) && math.IsNaN(want))
}

// snapshot copies b, bytes ReadChunk returned, out of the source: under
// the source's Guard when it has one, as the contract asks for in-place
// bytes.
func snapshot(src array.Source, b []byte) ([]byte, error) {
	out := make([]byte, len(b))
	if g, ok := src.(array.Guarder); ok {
		_, err := g.Copy(out, b)
		return out, err
	}
	copy(out, b)
	return out, nil
}

// isMissing reports whether err says the chunk is not stored.
func isMissing(err error) bool { return errors.Is(err, array.ErrMissingChunk) }

// sameBytes is bytes.Equal, named for what the checks mean by it.
func sameBytes(a, b []byte) bool { return bytes.Equal(a, b) }
