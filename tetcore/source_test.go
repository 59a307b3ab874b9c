package tetcore_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/tetcore"
)

// TestFormat_source opens the sample with metadata through tetcore.Format
// and checks what the array view says against the Dataset view.
func TestFormat_source(t *testing.T) {
	t.Parallel()
	s := buildSample(t, true)
	path := filepath.Join(t.TempDir(), "s.tet")
	if err := os.WriteFile(path, s.data, 0o644); err != nil {
		t.Fatal(err)
	}
	if tetcore.Format.Name() != "tet" || !tetcore.Format.Sniff(s.data[:array.SniffLen]) ||
		tetcore.Format.Sniff([]byte("TET")) || tetcore.Format.Sniff([]byte("PK\x03\x04")) {
		t.Fatal("Name/Sniff")
	}
	src, err := tetcore.Format.Open(path, array.Options{MaxChunkBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	f := src.(*tetcore.File)
	arrs := src.Arrays()
	if len(arrs) != len(s.sets) {
		t.Fatalf("%d arrays", len(arrs))
	}
	for i, a := range arrs {
		ds, in := f.Datasets[i], a.Info()
		if in.Name != ds.Name || in.DType.String() != ds.DType.String() || in.ChunkCount() != ds.ChunkCount() ||
			in.Elements() != ds.Elements() || in.DimName(0) != ds.DimName(0) || len(in.Attrs) != len(ds.Attrs) {
			t.Errorf("array %d: info %+v vs dataset %+v", i, in, ds)
		}
		for id := range in.ChunkCount() {
			ci, ok := a.Chunk(id)
			c, _ := ds.Chunk(id)
			if !ok || ci.ID != id || ci.RawBytes != c.RawLen || ci.StoredBytes != c.StoredLen ||
				ci.Offset != int64(c.Offset) || ci.Codec != c.Codec.String() || ci.InPlace != (c.Codec == tetcore.CodecRaw) {
				t.Errorf("array %q chunk %d: %+v vs %+v", in.Name, id, ci, c)
			}
			got, err := a.ReadChunk(id, nil)
			want, err2 := f.ReadChunk(ds, c, nil)
			if err != nil || err2 != nil || !bytes.Equal(got, want) {
				t.Errorf("array %q chunk %d: ReadChunk %v %v", in.Name, id, err, err2)
			}
		}
		if _, err := a.ReadChunk(in.ChunkCount(), nil); !errors.Is(err, array.ErrMissingChunk) {
			t.Errorf("chunk past the grid: %v", err)
		}
	}
	if got := src.Attrs(); len(got) != len(f.Footer.FileMeta) {
		t.Errorf("Attrs %v", got)
	}
	h := src.(array.Historian).History()
	if len(h) != 1 || h[0].Op != "convert" || h[0].Params["jobs"] != "4" {
		t.Errorf("History %+v", h)
	}
	d := src.(array.Describer).Describe()
	if d.Format != "tet" || d.Size != int64(len(s.data)) || d.LayoutVersion != 1 || d.Footer != "ok" {
		t.Errorf("Describe %+v", d)
	}
	fs, err := src.(array.Verifier).Verify(true, 0)
	if err != nil || len(fs) != 0 {
		t.Errorf("Verify: %v %v", fs, err)
	}
}

// TestFormat_errors: opening what is not a .tet file fails with a nil
// Source (not a typed nil) and the shared sentinels.
func TestFormat_errors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.tet")
	if err := os.WriteFile(bad, []byte("TETR but far too short"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want error
	}{{bad, array.ErrTruncated}, {dir, array.ErrNotRegular}} {
		src, err := tetcore.Format.Open(tc.path, array.Options{})
		if src != nil || !errors.Is(err, tc.want) {
			t.Errorf("Open(%s) = %v, %v; want nil, %v", tc.path, src, err, tc.want)
		}
	}
}

// TestSentinels_shared: tetcore's sentinels are array's where they mean
// the same thing, so errors.Is works across the layers.
func TestSentinels_shared(t *testing.T) {
	t.Parallel()
	pairs := [][2]error{{tetcore.ErrCorrupt, array.ErrCorrupt}, {tetcore.ErrTruncated, array.ErrTruncated},
		{tetcore.ErrUnsupported, array.ErrUnsupported}, {tetcore.ErrDecode, array.ErrDecode},
		{tetcore.ErrMissingChunk, array.ErrMissingChunk}, {tetcore.ErrTooLarge, array.ErrTooLarge},
		{tetcore.ErrClosed, array.ErrClosed}, {tetcore.ErrNotFound, array.ErrNotFound},
		{tetcore.ErrNotRegular, array.ErrNotRegular}, {tetcore.ErrChanged, array.ErrChanged}}
	for _, p := range pairs {
		if p[0] != p[1] {
			t.Errorf("%v is not array's", p[0])
		}
	}
	if errors.Is(tetcore.ErrBadMagic, array.ErrCorrupt) {
		t.Error("ErrBadMagic is its own sentinel")
	}
}

// TestDType_array maps every wire tag to the array type of the same name
// and back.
func TestDType_array(t *testing.T) {
	t.Parallel()
	for _, d := range tetcore.AllDTypes {
		a := d.Array()
		if a.String() != d.String() || a.Size() != d.Size() {
			t.Errorf("%v → %v", d, a)
		}
		if back, ok := tetcore.DTypeOf(a); !ok || back != d {
			t.Errorf("DTypeOf(%v) = %v, %v", a, back, ok)
		}
	}
	if tetcore.DType(0).Array() != array.Invalid || tetcore.DType(99).Array() != array.Invalid {
		t.Error("invalid tags must map to Invalid")
	}
	if _, ok := tetcore.DTypeOf(array.I8); ok {
		t.Error("layout v1 has no i8")
	}
}
