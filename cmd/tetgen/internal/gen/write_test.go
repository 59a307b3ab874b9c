package gen_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetgen/internal/gen"
	"github.com/tetsql/tetsql/tetcore"
)

// assemble reads every chunk of ds back into one row-major array.
func assemble(t testing.TB, f *tetcore.File, ds *tetcore.Dataset) []byte {
	t.Helper()
	size := int64(ds.DType.Size())
	out := make([]byte, ds.Elements()*size)
	r := ds.Rank()
	start, extent, pos := make([]int64, r), make([]int64, r), make([]int64, r)
	if int64(len(ds.Chunks())) != ds.ChunkCount() {
		t.Fatalf("%s: %d chunks in the index, grid has %d", ds.Name, len(ds.Chunks()), ds.ChunkCount())
	}
	for i := range ds.Chunks() {
		c := &ds.Chunks()[i]
		data, err := f.ReadChunk(ds, c, nil)
		if err != nil {
			t.Fatalf("ReadChunk %v: %v", c.Coords, err)
		}
		n := ds.ChunkStart(c.Coords[:r], start, extent)
		for k := range n {
			rem := k
			for a := r - 1; a >= 0; a-- {
				pos[a] = start[a] + rem%extent[a]
				rem /= extent[a]
			}
			copy(out[ds.Linear(pos)*size:], data[k*size:(k+1)*size])
		}
	}
	return out
}

// generate writes cfg to a temporary file and returns its path.
func generate(t testing.TB, cfg *gen.Config, opt gen.Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out.tet")
	if err := gen.Write(context.Background(), path, cfg, opt); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return path
}

func open(t testing.TB, path string) *tetcore.File {
	t.Helper()
	f, err := tetcore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	rep, err := f.VerifyReport(tetcore.VerifyDeep)
	if err != nil || !rep.OK() {
		t.Fatalf("Verify: %v %+v", err, rep)
	}
	return f
}

// TestWrite_ramp checks every dtype, both codecs and edge chunks against
// the ramp formula: element = global row-major index, converted.
func TestWrite_ramp(t *testing.T) {
	t.Parallel()
	cfg := &gen.Config{Pattern: gen.Ramp}
	for i, dt := range tetcore.AllDTypes {
		codec := []string{"raw", "zstd"}[i%2]
		other := []string{"zstd", "raw"}[i%2]
		for g, geo := range []string{"300:7", "17x23:4x5", "3x5x70:2x2x64", "5x1:8x1"} {
			must(t, cfg.AddDataset(fmt.Sprintf("%s/%s/g%d:%s:%s:%s", dt, codec, g, dt, geo, codec)))
			must(t, cfg.AddDataset(fmt.Sprintf("%s/%s/g%d:%s:%s:%s", dt, other, g, dt, geo, other)))
		}
	}
	f := open(t, generate(t, cfg, gen.Options{Workers: 3}))
	if len(f.Datasets) != len(cfg.Datasets) {
		t.Fatalf("%d datasets, want %d", len(f.Datasets), len(cfg.Datasets))
	}
	for _, ds := range f.Datasets {
		data := assemble(t, f, ds)
		for l := range int(ds.Elements()) {
			got, want := element(ds.DType, data, l), rampValue(ds.DType, int64(l))
			if got != want && !(math.IsInf(want, 1) && math.IsInf(got, 1)) {
				t.Fatalf("%s[%d] = %v, want %v", ds.Name, l, got, want)
			}
		}
	}
}

// element returns element l as float64 (integers exactly: they stay small).
func element(dt tetcore.DType, b []byte, l int) float64 {
	if dt == tetcore.U64 {
		return float64(dt.Uint64(b, l))
	}
	return dt.Float64(b, l)
}

// rampValue is the ramp formula, written independently of the generator.
func rampValue(dt tetcore.DType, l int64) float64 {
	switch dt {
	case tetcore.F64:
		return float64(l)
	case tetcore.F32:
		return float64(float32(l))
	case tetcore.F16:
		return float64(tetcore.HalfToFloat32(tetcore.Float32ToHalf(float32(l))))
	case tetcore.U8:
		return float64(uint8(l))
	case tetcore.I16:
		return float64(int16(l))
	case tetcore.U16:
		return float64(uint16(l))
	case tetcore.I32:
		return float64(int32(l))
	case tetcore.U32:
		return float64(uint32(l))
	case tetcore.I64:
		return float64(l)
	case tetcore.U64:
		return float64(uint64(l))
	}
	panic(dt)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestWrite_rampWraps(t *testing.T) {
	t.Parallel()
	cfg := &gen.Config{Pattern: gen.Ramp}
	must(t, cfg.AddDataset("a:u8:300:128"))
	must(t, cfg.AddDataset("b:i16:40000:40000:zstd"))
	must(t, cfg.AddDataset("c:f16:70000:10000"))
	f := open(t, generate(t, cfg, gen.Options{}))
	a := assemble(t, f, f.Datasets[0])
	b := assemble(t, f, f.Datasets[1])
	c := assemble(t, f, f.Datasets[2])
	if a[255] != 255 || a[256] != 0 || a[299] != 43 {
		t.Errorf("u8 ramp: %d %d %d, want 255 0 43", a[255], a[256], a[299])
	}
	if v := tetcore.I16.Int64(b, 32768); v != -32768 {
		t.Errorf("i16 ramp at 32768 = %d, want -32768", v)
	}
	if v := tetcore.F16.Float64(c, 2049); v != 2048 { // 2049 rounds to even
		t.Errorf("f16 ramp at 2049 = %v, want 2048", v)
	}
	if v := tetcore.F16.Float64(c, 69999); !math.IsInf(v, 1) {
		t.Errorf("f16 ramp at 69999 = %v, want +Inf", v)
	}
}

// fileBytes writes cfg and returns the file's bytes.
func fileBytes(t testing.TB, cfg *gen.Config, workers int) []byte {
	t.Helper()
	b, err := os.ReadFile(generate(t, cfg, gen.Options{Workers: workers}))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func patternConfig(t testing.TB, p gen.Pattern, seed uint64) *gen.Config {
	cfg := &gen.Config{Pattern: p, Seed: seed}
	must(t, cfg.AddDataset("grid:f32:130x70:32x32:zstd:y,x"))
	must(t, cfg.AddDataset("cube:i16:9x10x11:4x4x4:raw"))
	must(t, cfg.AddDataset("line:u64:1000:300:zstd"))
	must(t, cfg.AddDataset("half:f16:50x3:7x2"))
	must(t, cfg.AddLabels("grid.y=seq:y%03d"))
	must(t, cfg.AddAttr("grid.units=K"))
	return cfg
}

func TestWrite_deterministic(t *testing.T) {
	t.Parallel()
	for _, p := range []gen.Pattern{gen.Wave, gen.Ramp, gen.Random} {
		one := fileBytes(t, patternConfig(t, p, 7), 1)
		four := fileBytes(t, patternConfig(t, p, 7), 4)
		if !bytes.Equal(one, four) {
			t.Errorf("%v: 1 worker and 4 workers give different bytes", p)
		}
		other := fileBytes(t, patternConfig(t, p, 8), 2)
		if differ := !bytes.Equal(one, other); differ != (p != gen.Ramp) {
			t.Errorf("%v: seeds 7 and 8 give different bytes: %v", p, differ)
		}
	}
}

// TestWrite_ranges checks wave and random values lie in their documented
// ranges and are not constant.
func TestWrite_ranges(t *testing.T) {
	t.Parallel()
	for _, p := range []gen.Pattern{gen.Wave, gen.Random} {
		cfg := &gen.Config{Pattern: p, Seed: 3}
		for _, dt := range tetcore.AllDTypes {
			must(t, cfg.AddDataset(fmt.Sprintf("%s:%s:40x30:16x16:zstd", dt, dt)))
		}
		f := open(t, generate(t, cfg, gen.Options{}))
		for _, ds := range f.Datasets {
			data := assemble(t, f, ds)
			lo, hi := math.Inf(1), math.Inf(-1)
			for l := range int(ds.Elements()) {
				v := element(ds.DType, data, l)
				lo, hi = min(lo, v), max(hi, v)
			}
			want := [2]float64{-1.02, 1.02}
			switch {
			case p == gen.Random && ds.DType.IsFloat():
				want = [2]float64{0, 1}
			case p == gen.Random:
				want = [2]float64{-1 << 63, 1 << 64}
			case ds.DType == tetcore.U8:
				want = [2]float64{0, 202}
			case ds.DType == tetcore.I16:
				want = [2]float64{-10200, 10200}
			case ds.DType == tetcore.U16:
				want = [2]float64{0, 20200}
			case ds.DType == tetcore.I32 || ds.DType == tetcore.I64:
				want = [2]float64{-1.02e6, 1.02e6}
			case ds.DType == tetcore.U32 || ds.DType == tetcore.U64:
				want = [2]float64{0, 2.02e6}
			}
			if lo < want[0] || hi > want[1] || lo == hi {
				t.Errorf("%v %s: values in [%v, %v], want within %v and not constant", p, ds.Name, lo, hi, want)
			}
		}
	}
}

func TestWrite_metadata(t *testing.T) {
	t.Parallel()
	cfg := patternConfig(t, gen.Wave, 1)
	cfg.FileMeta = map[string]string{"tool": "tetgen"}
	f := open(t, generate(t, cfg, gen.Options{}))
	ds, err := f.Dataset("grid")
	must(t, err)
	if !reflect.DeepEqual(ds.DimNames, []string{"y", "x"}) || ds.Labels[0][129] != "y129" || ds.Labels[1] != nil {
		t.Errorf("grid: dims %q labels %q", ds.DimNames, ds.Labels)
	}
	if ds.Attrs["units"] != "K" || f.Footer.FileMeta["tool"] != "tetgen" {
		t.Errorf("attrs %q file meta %q", ds.Attrs, f.Footer.FileMeta)
	}
	if cube, _ := f.Dataset("cube"); cube.DimNames != nil || cube.Labels != nil {
		t.Errorf("cube has metadata: %q %q", cube.DimNames, cube.Labels)
	}
	if info, err := os.Stat(f.Path()); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("file mode: %v %v", info.Mode(), err)
	}
}

func TestWrite_errors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := gen.Write(context.Background(), filepath.Join(dir, "x.tet"), &gen.Config{}, gen.Options{}); err == nil {
		t.Error("no datasets: no error")
	}
	cfg := newConfig(t, "a:f32:4:2")
	if err := gen.Write(context.Background(), filepath.Join(dir, "missing", "x.tet"), cfg, gen.Options{}); err == nil {
		t.Error("missing directory: no error")
	}
	cfg.Datasets[0].Data = []byte{1, 2, 3}
	if err := gen.Write(context.Background(), filepath.Join(dir, "x.tet"), cfg, gen.Options{}); err == nil {
		t.Error("wrong data length: no error")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files left behind: %v", entries)
	}
}

func TestWrite_progress(t *testing.T) {
	t.Parallel()
	cfg := newConfig(t, "a:u16:100x10:7x10:zstd", "b:u8:5:2")
	var got []gen.Progress
	generate(t, cfg, gen.Options{Workers: 2, Progress: func(p gen.Progress) { got = append(got, p) }})
	if len(got) != 15+3 {
		t.Fatalf("%d progress calls, want 18", len(got))
	}
	last := got[len(got)-1]
	if want := (gen.Progress{Chunks: 18, TotalChunks: 18, RawBytes: 2005, TotalRaw: 2005}); last != want {
		t.Errorf("last progress %+v, want %+v", last, want)
	}
}

func BenchmarkWrite(b *testing.B) {
	for _, codec := range []string{"raw", "zstd"} {
		b.Run(codec, func(b *testing.B) {
			cfg := &gen.Config{Pattern: gen.Wave}
			must(b, cfg.AddDataset("grid:f32:1024x1024:256x256:"+codec))
			b.SetBytes(4 << 20)
			b.ReportAllocs()
			for b.Loop() {
				generate(b, cfg, gen.Options{})
			}
		})
	}
}

// TestWrite_cancel stops a Write midway: it returns the context's error,
// leaves no file behind and does not hang.
func TestWrite_cancel(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := newConfig(t, "a:f32:200x200:10x10:zstd")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := gen.Options{Workers: 3, Progress: func(p gen.Progress) {
		if p.Chunks == 5 {
			cancel()
		}
	}}
	err := gen.Write(ctx, filepath.Join(dir, "x.tet"), cfg, opt)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files left behind: %v", entries)
	}
}
