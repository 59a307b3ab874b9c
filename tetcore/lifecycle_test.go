package tetcore_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

func openSample(t *testing.T) (*tetcore.File, *sample) {
	t.Helper()
	s := buildSample(t, true)
	path := filepath.Join(t.TempDir(), "s.tet")
	if err := os.WriteFile(path, s.data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := tetcore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path() != path || f.Size() != int64(len(s.data)) {
		t.Fatalf("path %q size %d", f.Path(), f.Size())
	}
	return f, s
}

func TestClose_thenReadFails(t *testing.T) {
	t.Parallel()
	f, _ := openSample(t)
	raw, z := f.Datasets[0], f.Datasets[1]
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	for _, ds := range []*tetcore.Dataset{raw, z} {
		if _, err := f.ReadChunk(ds, &ds.Chunks()[0], nil); !errors.Is(err, tetcore.ErrClosed) {
			t.Errorf("%s ReadChunk after Close: %v", ds.Name, err)
		}
		if _, err := f.ReadChunkAt(ds, 0, nil); !errors.Is(err, tetcore.ErrClosed) {
			t.Errorf("%s ReadChunkAt after Close: %v", ds.Name, err)
		}
	}
	if _, err := f.Stored(&raw.Chunks()[0]); !errors.Is(err, tetcore.ErrClosed) {
		t.Errorf("Stored after Close: %v", err)
	}
	if err := f.Acquire(); !errors.Is(err, tetcore.ErrClosed) {
		t.Errorf("Acquire after Close: %v", err)
	}
	if _, err := f.VerifyReport(tetcore.VerifyQuick); !errors.Is(err, tetcore.ErrClosed) {
		t.Errorf("Verify after Close: %v", err)
	}
}

// TestClose_whileAcquired: Close while pinned keeps the mapping readable
// until the last Release; then reads fail with ErrClosed.
func TestClose_whileAcquired(t *testing.T) {
	t.Parallel()
	f, s := openSample(t)
	if err := f.Acquire(); err != nil {
		t.Fatal(err)
	}
	if err := f.Acquire(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	checkContents(t, f, s) // still mapped
	if err := f.Acquire(); !errors.Is(err, tetcore.ErrClosed) {
		t.Errorf("Acquire after Close: %v", err)
	}
	f.Release()
	checkContents(t, f, s) // one pin left
	// Verify pins the file itself, and Acquire fails once Close was called.
	if _, err := f.VerifyReport(tetcore.VerifyDeep); !errors.Is(err, tetcore.ErrClosed) {
		t.Errorf("Verify after Close while pinned: %v", err)
	}
	f.Release()
	ds := f.Datasets[1]
	if _, err := f.ReadChunk(ds, &ds.Chunks()[0], nil); !errors.Is(err, tetcore.ErrClosed) {
		t.Errorf("ReadChunk after last Release: %v", err)
	}
}

// TestAcquire_concurrentReaders reads from many goroutines that pin the
// file while another closes it (run with -race).
func TestAcquire_concurrentReaders(t *testing.T) {
	t.Parallel()
	f, _ := openSample(t)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for k := 0; k < 20; k++ {
				if err := f.Acquire(); err != nil {
					if !errors.Is(err, tetcore.ErrClosed) {
						t.Error(err)
					}
					return
				}
				var buf []byte
				for _, ds := range f.Datasets {
					for j := range ds.Chunks() {
						out, err := f.ReadChunk(ds, &ds.Chunks()[j], buf)
						if err != nil || int64(len(out)) != ds.Chunks()[j].RawLen {
							t.Errorf("%s: %v", ds.Name, err)
						}
						if ds.Chunks()[j].Codec == tetcore.CodecZstd {
							buf = out
						}
					}
				}
				f.Release()
			}
		}()
	}
	close(start)
	f.Close()
	wg.Wait()
	if err := f.Acquire(); !errors.Is(err, tetcore.ErrClosed) {
		t.Errorf("Acquire after Close: %v", err)
	}
}

// TestReadChunk_rawViewAsBuf: the natural loop `buf, _ = ReadChunk(…, buf)`
// hands a raw chunk's view of the file back as buf; decoding the next
// zstd chunk must not write into the file's bytes.
func TestReadChunk_rawViewAsBuf(t *testing.T) {
	t.Parallel()
	s := buildSample(t, false)
	data := s.clone()
	f, err := tetcore.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	i64, f16 := f.Datasets[2], f.Datasets[3]
	buf, err := f.ReadChunk(i64, &i64.Chunks()[0], nil) // 32 raw bytes
	if err != nil {
		t.Fatal(err)
	}
	c := &f16.Chunks()[0] // zstd, 24 bytes
	if c.Codec != tetcore.CodecZstd || c.RawLen > int64(cap(buf)) {
		t.Fatalf("setup: %+v cap %d", c, cap(buf))
	}
	out, err := f.ReadChunk(f16, c, buf)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, s.data) {
		t.Fatal("decoding into a raw chunk's view modified the file bytes")
	}
	// Chunk [0 0 0] of shape [3 4 2]: rows 0–1, columns 0–2, both planes.
	if want := append(bytes.Clone(s.sets[3].data[0:12]), s.sets[3].data[16:28]...); !bytes.Equal(out, want) {
		t.Fatalf("decoded %x", out)
	}
	checkContents(t, f, s)
	// The mapped case would fault instead of corrupting: exercise it too.
	mf, _ := openSample(t)
	defer mf.Close()
	i64, f16 = mf.Datasets[2], mf.Datasets[3]
	buf, _ = mf.ReadChunk(i64, &i64.Chunks()[0], nil)
	if out, err := mf.ReadChunk(f16, &f16.Chunks()[0], buf); err != nil || len(out) != 24 {
		t.Fatalf("mapped: %d %v", len(out), err)
	}
}

// TestParse_lifecycle: a file parsed from the caller's bytes has no
// mapping, so Guard runs the read bare (a panic passes), it never
// changes and has nothing to evict, and yet pins and Close work as for
// an opened file.
func TestParse_lifecycle(t *testing.T) {
	t.Parallel()
	s := buildSample(t, true)
	data := s.clone()
	f, err := tetcore.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path() != "" || f.Size() != int64(len(data)) {
		t.Fatalf("path %q size %d", f.Path(), f.Size())
	}
	func() {
		defer func() {
			if r := recover(); r != "bare" {
				t.Errorf("Guard: recovered %v, want the read's own panic", r)
			}
		}()
		_ = f.Guard(func() { panic("bare") })
	}()
	if err := f.CheckUnchanged(); err != nil {
		t.Errorf("CheckUnchanged: %v", err)
	}
	f.EvictRange(0, 1<<62)
	if !bytes.Equal(data, s.data) {
		t.Fatal("EvictRange changed the caller's bytes")
	}
	checkContents(t, f, s)
	if err := f.Acquire(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Acquire(); !errors.Is(err, tetcore.ErrClosed) {
		t.Errorf("Acquire after Close: %v", err)
	}
	checkContents(t, f, s) // still pinned
	f.Release()
	ds := f.Datasets[0]
	if _, err := f.ReadChunk(ds, &ds.Chunks()[0], nil); !errors.Is(err, tetcore.ErrClosed) {
		t.Errorf("ReadChunk after the last Release: %v", err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}
