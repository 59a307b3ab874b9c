package arraytest

import (
	"errors"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// checkCaps exercises the optional capabilities the source offers, on an
// open source, and checks that chunks read the same afterwards.
func checkCaps(t *testing.T, src array.Source) {
	if g, ok := src.(array.Guarder); ok {
		ran := 0
		if err := g.Guard(func() { ran++ }); err != nil || ran != 1 {
			t.Errorf("Guard: ran %d times, error %v; want once, nil", ran, err)
		}
		func() {
			defer func() {
				if r := recover(); r != "arraytest" {
					t.Errorf("Guard swallowed or changed a panic: recovered %v", r)
				}
			}()
			_ = g.Guard(func() { panic("arraytest") })
		}()
		dst := make([]byte, 3)
		if n, err := g.Copy(dst, []byte("abcd")); n != 3 || err != nil || string(dst) != "abc" {
			t.Errorf("Copy: %d, %v, %q", n, err, dst)
		}
	}
	if p, ok := src.(array.Pinner); ok {
		if err := p.Acquire(); err != nil {
			t.Errorf("Acquire on an open source: %v", err)
		} else {
			p.Release()
		}
	}
	if c, ok := src.(array.ChangeChecker); ok {
		if err := c.CheckUnchanged(); err != nil {
			t.Errorf("CheckUnchanged on an untouched file: %v", err)
		}
	}
	if h, ok := src.(array.Historian); ok {
		for i, row := range h.History() {
			if row.Op == "" {
				t.Errorf("history row %d has no op: %+v", i, row)
			}
		}
	}
	if d, ok := src.(array.Describer); ok {
		if desc := d.Describe(); desc.Format == "" || desc.Size < 0 {
			t.Errorf("Describe: %+v", desc)
		}
	}
	if v, ok := src.(array.Verifier); ok {
		checkVerify(t, src, v)
	}
	if e, ok := src.(array.Evicter); ok {
		before := readAll(t, src)
		for _, a := range src.Arrays() {
			for id := range a.Info().ChunkCount() {
				if c, ok := a.Chunk(id); ok && c.Offset >= 0 {
					e.EvictRange(uint64(c.Offset), uint64(c.Offset+c.StoredBytes))
				}
			}
		}
		e.EvictRange(0, 1<<62)
		e.EvictRange(10, 5) // an empty range is no error either
		if after := readAll(t, src); !equalMaps(before, after) {
			t.Error("chunks read differently after EvictRange")
		}
	}
}

// checkVerify runs both verifications; a source whose chunks are all
// present must not find errors in a file that opened and read fine.
func checkVerify(t *testing.T, src array.Source, v array.Verifier) {
	complete := true
	for _, a := range src.Arrays() {
		for id := range a.Info().ChunkCount() {
			if _, ok := a.Chunk(id); !ok {
				complete = false
			}
		}
	}
	for _, deep := range []bool{false, true} {
		fs, err := v.Verify(deep, 0)
		if err != nil {
			t.Errorf("Verify(%v): %v", deep, err)
		}
		for _, f := range fs {
			if f.Severity != "error" && f.Severity != "warning" {
				t.Errorf("Verify(%v): finding with severity %q: %+v", deep, f.Severity, f)
			}
			if f.Severity == "error" && complete {
				t.Errorf("Verify(%v): error in a readable file: %+v", deep, f)
			}
		}
	}
}

// readAll snapshots every chunk, keyed by array and id.
func readAll(t *testing.T, src array.Source) map[[2]int64][]byte {
	out := map[[2]int64][]byte{}
	for i, a := range src.Arrays() {
		for id := range a.Info().ChunkCount() {
			if b, err := a.ReadChunk(id, nil); err == nil {
				s, err := snapshot(src, b)
				if err != nil {
					t.Errorf("array %q chunk %d: %v", a.Info().Name, id, err)
				}
				out[[2]int64{int64(i), id}] = s
			}
		}
	}
	return out
}

func equalMaps(a, b map[[2]int64][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !sameBytes(v, b[k]) {
			return false
		}
	}
	return true
}

// checkClose opens fresh sources and closes them idle, pinned, and twice.
// After Close, reading fails with ErrClosed; with a pin held, Close waits
// for the last Release and reads keep working until then.
func checkClose(t *testing.T, open func() (array.Source, error)) {
	src := mustOpen(t, open)
	first := firstChunk(src)
	if err := src.Close(); err != nil {
		t.Fatalf("Close while idle: %v", err)
	}
	if err := src.Close(); err != nil && !errors.Is(err, array.ErrClosed) {
		t.Errorf("second Close: %v", err)
	}
	if first != nil {
		if _, err := first.ReadChunk(firstID(first), nil); !errors.Is(err, array.ErrClosed) {
			t.Errorf("ReadChunk after Close: %v, want ErrClosed", err)
		}
	}
	if p, ok := src.(array.Pinner); ok {
		if err := p.Acquire(); !errors.Is(err, array.ErrClosed) {
			t.Errorf("Acquire after Close: %v, want ErrClosed", err)
			if err == nil {
				p.Release()
			}
		}
		checkPinnedClose(t, open)
	}
}

// checkPinnedClose: Close with a pin held takes effect at Release.
func checkPinnedClose(t *testing.T, open func() (array.Source, error)) {
	src := mustOpen(t, open)
	p := src.(array.Pinner)
	if err := p.Acquire(); err != nil {
		t.Fatalf("Acquire: %v", err)
	}
	a := firstChunk(src)
	if err := src.Close(); err != nil {
		t.Errorf("Close while pinned: %v", err)
	}
	if a != nil {
		if b, err := a.ReadChunk(firstID(a), nil); err != nil {
			t.Errorf("ReadChunk after Close while pinned: %v", err)
		} else if _, err := snapshot(src, b); err != nil {
			t.Errorf("reading the chunk after Close while pinned: %v", err)
		}
	}
	p.Release()
	if a != nil {
		if _, err := a.ReadChunk(firstID(a), nil); !errors.Is(err, array.ErrClosed) {
			t.Errorf("ReadChunk after the last Release: %v, want ErrClosed", err)
		}
	}
}

// firstChunk returns the first array with a stored chunk, or nil.
func firstChunk(src array.Source) array.Array {
	for _, a := range src.Arrays() {
		if firstID(a) >= 0 {
			return a
		}
	}
	return nil
}

// firstID is the first stored chunk of a, or -1.
func firstID(a array.Array) int64 {
	for id := range a.Info().ChunkCount() {
		if _, ok := a.Chunk(id); ok {
			return id
		}
	}
	return -1
}
