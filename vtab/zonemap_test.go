package vtab_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// withZoneMaps rewrites the .tet file at path (written by tetcore, with a
// footer) as footer version 2 carrying blob as its zone maps, the way
// tet-py 0.8 lays them out: after the payloads, before the footer JSON.
func withZoneMaps(t *testing.T, path string, blob []byte) {
	t.Helper()
	d, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
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
}

// rampZones is the zone maps blob of writeRamp(n, c) with DimNames set
// (a footer), chunk k's max replaced by lie(k) when lie is not nil.
func rampZones(n, c int64, lie func(k int64) (float32, bool)) []byte {
	var chunks []string
	for k := int64(0); k*c < n; k++ {
		lo, hi := k*c, min((k+1)*c, n)
		nulls := int64(0)
		mn, mx := float32(math.Inf(1)), float32(math.Inf(-1))
		for i := lo; i < hi; i++ {
			if i%1000 == 0 {
				nulls++
				continue
			}
			mn, mx = min(mn, float32(i)), max(mx, float32(i))
		}
		if lie != nil {
			if v, ok := lie(k); ok {
				mx = v
			}
		}
		le := func(f float32) string {
			var b [4]byte
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(f))
			return fmt.Sprintf("%x", b)
		}
		chunks = append(chunks, fmt.Sprintf(`{"dataset_id": 0, "chunk_index": [%d], "element_count": %d, "null_count": %d, "min_le": %q, "max_le": %q}`,
			k, hi-lo, nulls, le(mn), le(mx)))
	}
	return []byte(`{"version": 1, "generation": 0, "packed_sha256": "00", "chunks": [` + strings.Join(chunks, ", ") + `]}`)
}

// TestZoneMaps_skipOnFirstScan: with the file's zone maps, even the first
// scan skips the chunks they exclude, unread, in cells and _agg.
func TestZoneMaps_skipOnFirstScan(t *testing.T) {
	path := writeRamp(t, 10000, 100)
	withZoneMaps(t, path, rampZones(10000, 100, nil))
	for _, q := range []string{"SELECT count(*) FROM f.r WHERE value > 9349.5", "SELECT count FROM f.r_agg WHERE value > 9349.5"} {
		db, sess := openDB(t, map[string]string{"f": path})
		if got := rowsOf(t, db, q); got[0] != "650" {
			t.Fatalf("%s: %v", q, got)
		}
		s := sess.TakeScans()[0]
		if s.ChunksDecoded != 7 || s.ChunksSkipped != 93 {
			t.Errorf("%s: decoded=%d skipped=%d, want 7 and 93", q, s.ChunksDecoded, s.ChunksSkipped)
		}
	}
}

// TestZoneMaps_lyingMapDropped: a zone map that disagrees with its chunk
// is found when the chunk is read, and the array's zone maps are then
// not used again; the chunk is filtered by its elements.
func TestZoneMaps_lyingMapDropped(t *testing.T) {
	path := writeRamp(t, 10000, 100)
	// Chunk 0 claims a max of 5000 (its elements are 0..99).
	withZoneMaps(t, path, rampZones(10000, 100, func(k int64) (float32, bool) { return 5000, k == 0 }))
	db, sess := openDB(t, map[string]string{"f": path})
	if got := rowsOf(t, db, "SELECT count(*) FROM f.r WHERE value > 4000"); got[0] != "5994" {
		t.Fatalf("count %v, want 5994", got)
	}
	s := sess.TakeScans()[0]
	// Chunk 0 is read (its map says it may match) and contradicts its
	// map; the later chunks, whose maps are dropped, are read too.
	if s.ChunksDecoded != 100 || s.ChunksSkipped != 0 {
		t.Errorf("decoded=%d skipped=%d, want every chunk read once the maps are dropped", s.ChunksDecoded, s.ChunksSkipped)
	}
}

// TestZoneMaps_tetpyFile: the zone maps tet-py wrote into the interop
// fixture skip chunks on the first scan; the dataset with a _FillValue
// uses none (tet-py counts -9999 as a null), so -9999 is still found.
func TestZoneMaps_tetpyFile(t *testing.T) {
	db, sess := openDB(t, map[string]string{"m": "../testdata/interop/metadata.tet"})
	for _, tc := range []struct {
		q, want          string
		decoded, skipped int64
	}{
		{`SELECT count(*) FROM m."climate/pressure" WHERE value < 600`, "1", 1, 1},   // chunk 0 holds 1013.25 and 850
		{`SELECT count(*) FROM m.flat WHERE value > 20`, "1", 1, 1},                  // 10, -20, 30 | -40
		{`SELECT value FROM m."climate/temperature" WHERE value < 0`, "-9999", 4, 0}, // no zone map used
		{`SELECT count FROM m."climate/pressure_agg" WHERE value > 2000`, "0", 0, 2}, // nothing read
	} {
		got := rowsOf(t, db, tc.q)
		if len(got) != 1 || got[0] != tc.want {
			t.Fatalf("%s: %v, want %s", tc.q, got, tc.want)
		}
		s := sess.TakeScans()[0]
		if s.ChunksDecoded != tc.decoded || s.ChunksSkipped != tc.skipped {
			t.Errorf("%s: decoded=%d skipped=%d, want %d %d", tc.q, s.ChunksDecoded, s.ChunksSkipped, tc.decoded, tc.skipped)
		}
	}
}
