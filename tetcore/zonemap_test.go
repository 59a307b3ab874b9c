package tetcore_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/tetcore"
)

// writeZoned writes dataset "t" (f32, 6 elements in chunks of 3, values
// 1..6) with a footer, then rewrites it as footer version 2 with blob as
// its zone maps, laid out as tet-py 0.8 lays them.
func writeZoned(t *testing.T, blob string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "z.tet")
	w, err := tetcore.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AddDataset(tetcore.DatasetSpec{Name: "t", DType: tetcore.F32, Shape: []int64{6}, ChunkShape: []int64{3}, DimNames: []string{"x"}}); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 24)
	for i := 0; i < 6; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(i+1)))
	}
	if err := w.WriteDataset(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	d, _ := os.ReadFile(path)
	n := len(d)
	jl := int(binary.LittleEndian.Uint64(d[n-16:]))
	var fj map[string]any
	if err := json.Unmarshal(d[n-16-jl:n-16], &fj); err != nil {
		t.Fatal(err)
	}
	head := d[:n-16-jl]
	fj["zone_maps_ref"] = map[string]any{"offset": len(head), "len": len(blob)}
	js, _ := json.Marshal(fj)
	out := append(append(append([]byte{}, head...), blob...), js...)
	var tail [16]byte
	binary.LittleEndian.PutUint64(tail[:], uint64(len(js)))
	binary.LittleEndian.PutUint32(tail[8:], 2)
	copy(tail[12:], "THST")
	if err := os.WriteFile(path, append(out, tail[:]...), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The honest zone maps of writeZoned's data: 1..3 and 4..6.
const (
	zone0 = `{"dataset_id": 0, "chunk_index": [0], "element_count": 3, "null_count": 0, "min_le": "0000803f", "max_le": "00004040"}`
	zone1 = `{"dataset_id": 0, "chunk_index": [1], "element_count": 3, "null_count": 0, "min_le": "00008040", "max_le": "0000c040"}`
)

func zoneBlob(chunks ...string) string {
	return `{"version": 1, "generation": 0, "chunks": [` + strings.Join(chunks, ", ") + `]}`
}

func zoneMapper(t *testing.T, f *tetcore.File) array.ZoneMapper {
	t.Helper()
	zm, ok := f.Arrays()[0].(array.ZoneMapper)
	if !ok {
		t.Fatal("a .tet array is not an array.ZoneMapper")
	}
	return zm
}

func verifyText(t *testing.T, f *tetcore.File, mode tetcore.VerifyMode) string {
	t.Helper()
	r, err := f.VerifyReport(mode)
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, x := range r.Findings {
		s = append(s, x.String())
	}
	return strings.Join(s, "\n")
}

func TestZoneMaps_read(t *testing.T) {
	f, err := tetcore.Open(writeZoned(t, zoneBlob(zone0, zone1)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zm := zoneMapper(t, f)
	z, ok := zm.ZoneMap(1)
	if !ok || z.Count != 3 || z.Nulls != 0 || math.Float32frombits(binary.LittleEndian.Uint32(z.Min)) != 4 ||
		math.Float32frombits(binary.LittleEndian.Uint32(z.Max)) != 6 {
		t.Fatalf("chunk 1: %+v %v", z, ok)
	}
	if _, ok := zm.ZoneMap(2); ok {
		t.Fatal("a zone map for a chunk outside the grid")
	}
	if v := verifyText(t, f, tetcore.VerifyDeep); v != "" {
		t.Fatalf("verify: %s", v)
	}
}

// TestZoneMaps_damagedIgnored: a blob with any bad entry is not offered
// at all, and verify says why.
func TestZoneMaps_damagedIgnored(t *testing.T) {
	for _, tc := range []struct{ name, blob, why string }{
		{"not JSON", `{"version": 1, "chunks": [`, "zone maps"},
		{"unknown version", `{"version": 2, "chunks": [` + zone0 + `]}`, "unknown version"},
		{"dataset out of range", zoneBlob(zone0, strings.Replace(zone1, `"dataset_id": 0`, `"dataset_id": 3`, 1)), "no dataset"},
		{"chunk outside the grid", zoneBlob(zone0, strings.Replace(zone1, `[1]`, `[2]`, 1)), "outside the grid"},
		{"rank mismatch", zoneBlob(zone0, strings.Replace(zone1, `[1]`, `[1, 0]`, 1)), "rank"},
		{"wrong byte length", zoneBlob(zone0, strings.Replace(zone1, `"0000c040"`, `"00c040"`, 1)), "not one f32"},
		{"bad hex", zoneBlob(zone0, strings.Replace(zone1, `"0000c040"`, `"zz00c040"`, 1)), "not one f32"},
		{"NaN extreme", zoneBlob(zone0, strings.Replace(zone1, `"0000c040"`, `"0000c07f"`, 1)), "NaN"},
		{"element count", zoneBlob(zone0, strings.Replace(zone1, `"element_count": 3`, `"element_count": 4`, 1)), "counts"},
		{"null count", zoneBlob(zone0, strings.Replace(zone1, `"null_count": 0`, `"null_count": -1`, 1)), "counts"},
		{"min above max", zoneBlob(zone0, strings.Replace(zone1, `"00008040"`, `"0000e040"`, 1)), "min above max"},
		{"duplicate", zoneBlob(zone0, zone0), "twice"},
	} {
		f, err := tetcore.Open(writeZoned(t, tc.blob))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, ok := zoneMapper(t, f).ZoneMap(0); ok {
			t.Errorf("%s: zone maps offered", tc.name)
		}
		if v := verifyText(t, f, tetcore.VerifyQuick); !strings.Contains(v, "zone maps") || !strings.Contains(v, tc.why) {
			t.Errorf("%s: verify %q, want a finding about %q", tc.name, v, tc.why)
		}
		f.Close()
	}
}

// TestZoneMaps_lyingReportedByDeepVerify: well-formed zone maps that
// disagree with the data are offered (they cannot be checked without
// reading), and a deep verify reports each chunk they misdescribe.
func TestZoneMaps_lyingReportedByDeepVerify(t *testing.T) {
	lie := strings.Replace(zone1, `"0000c040"`, `"0000e040"`, 1) // max 7, data max 6
	f, err := tetcore.Open(writeZoned(t, zoneBlob(zone0, lie)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if v := verifyText(t, f, tetcore.VerifyQuick); v != "" {
		t.Fatalf("quick verify: %s", v)
	}
	v := verifyText(t, f, tetcore.VerifyDeep)
	if !strings.Contains(v, "chunk [1] zone map disagrees with the data: min 4 max 6; zone map says 4, 7") || strings.Contains(v, "chunk [0]") {
		t.Fatalf("deep verify: %q", v)
	}
}

// TestZoneMaps_tetpy reads the zone maps tet-py 0.8 writes (skipped when
// it is not installed: pip install tet-py==0.8.3) and checks each against
// the chunk's elements with a deep verify, for f32 with NaN (one chunk
// all NaN), i32 and u64 above 2^63.
func TestZoneMaps_tetpy(t *testing.T) {
	if err := exec.Command("python3", "-c", "import tet, numpy").Run(); err != nil {
		t.Skip("tet-py not installed")
	}
	path := filepath.Join(t.TempDir(), "py.tet")
	script := `
import sys, numpy as np, tet
p = sys.argv[1]
a = np.arange(24, dtype=np.float32).reshape(4, 6); a[0, 0] = np.nan; a[2:4, 3:6] = np.nan; a[1, 1] = np.inf
tet.write_dataset(p, "f", a, chunk_shape=(2, 3))
tet.write_dataset(p + ".u", "u", np.array([2**63 + 5, 3, 2**64 - 1, 7, 1], dtype=np.uint64), chunk_shape=(2,))
tet.write_dataset(p + ".i", "i", np.array([-5, 3, 2**31 - 1, -2**31], dtype=np.int32), chunk_shape=(3,))
tet.write_dataset(p + ".s", "s", np.array([-9999, 1, 2], dtype=np.int32), chunk_shape=(2,), attrs={"_FillValue": "-9999"})
`
	if out, err := exec.Command("python3", "-c", script, path).CombinedOutput(); err != nil {
		t.Fatalf("tet-py: %v\n%s", err, out)
	}
	f, err := tetcore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zm := zoneMapper(t, f)
	z0, ok0 := zm.ZoneMap(0)
	z3, ok3 := zm.ZoneMap(3)
	if !ok0 || !ok3 || z0.Count != 6 || z0.Nulls != 1 || !math.IsInf(float64(math.Float32frombits(binary.LittleEndian.Uint32(z0.Max))), 1) ||
		z3.Nulls != 6 || z3.Min != nil {
		t.Fatalf("zone maps: %+v %v, %+v %v", z0, ok0, z3, ok3)
	}
	if v := verifyText(t, f, tetcore.VerifyDeep); v != "" {
		t.Fatalf("deep verify of tet-py's zone maps: %s", v)
	}
	for _, ext := range []string{".u", ".i"} {
		g, err := tetcore.Open(path + ext)
		if err != nil {
			t.Fatal(err)
		}
		z, ok := zoneMapper(t, g).ZoneMap(0)
		if !ok || z.Count != 2 && z.Count != 3 {
			t.Errorf("%s: chunk 0: %+v %v", ext, z, ok)
		}
		if v := verifyText(t, g, tetcore.VerifyDeep); v != "" {
			t.Errorf("%s: deep verify of tet-py's zone maps: %s", ext, v)
		}
		g.Close()
	}
	// With a _FillValue, tet-py counts -9999 as a null and leaves it out
	// of min/max: not the values SQL sees, so no zone map is offered.
	g, err := tetcore.Open(path + ".s")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if z, ok := zoneMapper(t, g).ZoneMap(0); ok {
		t.Errorf("zone map of a dataset with a _FillValue offered: %+v", z)
	}
	if v := verifyText(t, g, tetcore.VerifyDeep); v != "" {
		t.Errorf("deep verify with a _FillValue: %s", v)
	}
}
