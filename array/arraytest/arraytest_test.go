package arraytest_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/array/arraytest"
)

// fake is a u8 array of 10 elements (value = index) in chunks of 3, with
// one way of breaking the contract chosen by brk.
type fake struct {
	brk    string
	info   array.Info
	closed atomic.Bool
}

func openFake(brk string) func() (array.Source, error) {
	return func() (array.Source, error) {
		f := &fake{brk: brk, info: array.Info{Name: "a", DType: array.U8, Shape: []int64{10}, ChunkShape: []int64{3}}}
		if brk != "unvalidated" {
			if err := f.info.Validate(); err != nil {
				return nil, err
			}
		}
		return f, nil
	}
}

func (f *fake) Arrays() []array.Array       { return []array.Array{listing{f}} }
func (f *fake) Attrs() map[string]string    { return nil }
func (f *fake) Close() error                { f.closed.Store(true); return nil }
func (f *fake) Info() *array.Info           { return &f.info }
func (f *fake) ok(id int64) bool            { return id >= 0 && id < 4 }
func (f *fake) size(id int64) (lo, n int64) { return id * 3, min(3, 10-id*3) }

func (f *fake) Chunk(id int64) (array.ChunkInfo, bool) {
	if !f.ok(id) {
		return array.ChunkInfo{}, false
	}
	_, n := f.size(id)
	if f.brk == "rawbytes" {
		n++
	}
	return array.ChunkInfo{ID: id, RawBytes: n, StoredBytes: n, Offset: -1, Codec: "raw"}, true
}

func (f *fake) ReadChunk(id int64, dst []byte) ([]byte, error) {
	if f.brk == "panic" && id < 0 {
		panic("negative id")
	}
	if !f.ok(id) {
		return nil, fmt.Errorf("fake: chunk %d: %w", id, array.ErrMissingChunk)
	}
	if f.closed.Load() && f.brk != "afterclose" {
		return nil, array.ErrClosed
	}
	lo, n := f.size(id)
	if f.brk == "dst" && int64(cap(dst)) >= n {
		return dst[:n], nil // forgets to decode into a dst big enough
	}
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(lo + int64(i))
	}
	return out, nil
}

// listing gives the fake array.ChunkLister; with brk "lister" it leaves
// chunk 2 out.
type listing struct{ *fake }

func (l listing) StoredChunks(yield func(array.ChunkInfo) bool) {
	for id := int64(0); id < 4; id++ {
		if id == 2 && l.brk == "lister" {
			continue
		}
		if c, _ := l.Chunk(id); !yield(c) {
			return
		}
	}
}

// TestCheck_passes: a source keeping the contract passes, with its
// values checked.
func TestCheck_passes(t *testing.T) {
	arraytest.Check(t, openFake(""), arraytest.Options{
		Arrays: []string{"a"},
		Value:  func(_ string, c []int64) (float64, bool) { return float64(c[0]), true },
	})
}

// TestCheck_catches runs Check on broken sources in a child process (a
// failing Check fails its test) and expects each to fail, saying why.
func TestCheck_catches(t *testing.T) {
	if brk := os.Getenv("ARRAYTEST_BREAK"); brk != "" {
		var o arraytest.Options
		if brk == "value" {
			o.Value = func(_ string, c []int64) (float64, bool) { return float64(c[0] + 1), true }
		}
		arraytest.Check(t, openFake(brk), o)
		return
	}
	if testing.Short() {
		t.Skip("runs the test binary once per case")
	}
	for _, tc := range []struct{ brk, msg string }{
		{"unvalidated", "did not Validate"},
		{"rawbytes", "want ID"},
		{"panic", "panic negative id"},
		{"dst", "ReadChunk with large dst differs"},
		{"afterclose", "ReadChunk after Close"},
		{"value", "element [0] = 0, want 1"},
		{"lister", "StoredChunks lists 3 chunks, Chunk finds 4"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCheck_catches$", "-test.v")
		cmd.Env = append(os.Environ(), "ARRAYTEST_BREAK="+tc.brk)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || !strings.Contains(string(out), tc.msg) {
			t.Errorf("%s: error %v, want a failure saying %q; output:\n%s", tc.brk, err, tc.msg, out)
		}
	}
}
