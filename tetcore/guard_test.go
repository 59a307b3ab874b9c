//go:build unix

package tetcore_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetsql/tetsql/tetcore"
)

// TestGuard_truncatedWhileMapped truncates a mapped file: reading a raw
// view under Guard, or decoding a zstd chunk, fails with "was truncated
// while in use" (ErrChanged) instead of killing the process with SIGBUS,
// and Acquire, which every statement calls, refuses the changed file.
func TestGuard_truncatedWhileMapped(t *testing.T) {
	for _, codec := range []tetcore.Codec{tetcore.CodecRaw, tetcore.CodecZstd} {
		path := filepath.Join(t.TempDir(), "t.tet")
		spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F64, Shape: []int64{64, 1024}, ChunkShape: []int64{8, 1024}, Codec: codec}
		data := make([]byte, 64*1024*8)
		for i := range data {
			data[i] = byte(i*7 + i/8191) // compresses, but not to nothing
		}
		writeFile(t, path, []genDataset{{spec, data}}, nil)
		f, err := tetcore.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		ds := f.Datasets[0]
		last := &ds.Chunks()[len(ds.Chunks())-1]
		if err := f.Acquire(); err != nil {
			t.Fatal(err)
		}
		f.Release()
		if err := os.Truncate(path, 0); err != nil {
			t.Fatal(err)
		}
		var sum byte
		switch codec {
		case tetcore.CodecRaw:
			view, err := f.ReadChunk(ds, last, nil)
			if err != nil {
				t.Fatal(err) // a raw view is not read by ReadChunk
			}
			err = f.Guard(func() {
				for _, b := range view {
					sum += b
				}
			})
			checkTruncated(t, "raw view under Guard", err, path)
			_, err = f.Copy(make([]byte, len(view)), view)
			checkTruncated(t, "Copy", err, path)
		case tetcore.CodecZstd:
			_, err := f.ReadChunk(ds, last, nil)
			checkTruncated(t, "zstd decode", err, path)
		}
		if err := f.Acquire(); !errors.Is(err, tetcore.ErrChanged) {
			t.Errorf("Acquire after truncation: %v, want ErrChanged", err)
		}
		f.Close()
	}
}

func checkTruncated(t *testing.T, what string, err error, path string) {
	t.Helper()
	if !errors.Is(err, tetcore.ErrChanged) || !strings.Contains(err.Error(), "file "+path+" was truncated while in use") {
		t.Errorf("%s: %v; want \"file %s was truncated while in use\"", what, err, path)
	}
}

// TestReadChunk_rewrittenInPlace: a zstd chunk whose bytes were rewritten
// in place (same size, new modification time) fails as a changed file
// (ErrChanged), not as a corrupt one.
func TestReadChunk_rewrittenInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.tet")
	spec := tetcore.DatasetSpec{Name: "v", DType: tetcore.F64, Shape: []int64{64, 1024}, ChunkShape: []int64{8, 1024}, Codec: tetcore.CodecZstd}
	data := make([]byte, 64*1024*8)
	for i := range data {
		data[i] = byte(i*7 + i/8191)
	}
	writeFile(t, path, []genDataset{{spec, data}}, nil)
	f, err := tetcore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds := f.Datasets[0]
	c := &ds.Chunks()[len(ds.Chunks())-1]
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteAt(make([]byte, c.StoredLen), int64(c.Offset)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	later := st.ModTime().Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadChunk(ds, c, nil); !errors.Is(err, tetcore.ErrChanged) {
		t.Fatalf("ReadChunk of rewritten bytes: %v, want ErrChanged", err)
	}
}
