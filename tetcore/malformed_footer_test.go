package tetcore_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// withFooter returns the sample's datasets (everything before its footer)
// followed by body (spill and JSON) and a tail of json_len, version and
// magic. A negative jsonLen means the length of json.
func withFooter(s *sample, spill, json string, jsonLen int64, version uint32, magic string) []byte {
	b := append([]byte(nil), s.data[:s.payloadEnd]...)
	binary.LittleEndian.PutUint32(b[12:], 1)
	b = append(b, spill...)
	b = append(b, json...)
	if jsonLen < 0 {
		jsonLen = int64(len(json))
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(jsonLen))
	b = binary.LittleEndian.AppendUint32(b, version)
	return append(b, magic...)
}

const goodMeta = `{"file":{"tool":"test"},"datasets":{"f32":{"dim_names":["time","station"],` +
	`"coords":{"time":{"labels":["t0","t1","t2","t3","t4","t5"]}},"attrs":{"units":"K","scale":2.5}}}}`

// TestFooter_damaged builds each kind of footer damage the spec lists: the
// file opens, FooterStatus says what is wrong, datasets read back intact.
func TestFooter_damaged(t *testing.T) {
	t.Parallel()
	s := buildSample(t, false)
	good := `{"history":[{"op":"a","source":"b","at":"1"}],"metadata":` + goodMeta + `}`
	n := int64(s.payloadEnd)
	cases := []struct {
		name        string
		spill, json string
		jsonLen     int64
		version     uint32
		magic       string
		status      string // substring of FooterStatus after "damaged: "
	}{
		{"bad tail magic", "", good, -1, 1, "THSX", "tail magic"},
		{"bad tail magic zero", "", good, -1, 1, "\x00\x00\x00\x00", "tail magic"},
		{"version 0", "", good, -1, 0, "THST", "footer_version 0"},
		{"version 3", "", good, -1, 3, "THST", "footer_version 3"},
		{"version max", "", good, -1, math.MaxUint32, "THST", "footer_version"},
		{"json_len past start of file", "", good, n + 1000, 1, "THST", "json_len"},
		{"json_len max", "", good, -1 /* patched below */, 1, "THST", "json_len"},
		{"json_len into payloads", "", good, int64(len(good)) + 40, 1, "THST", "footer JSON"},
		{"json_len into index", "", good, int64(len(good)) + n - int64(s.index) - 10, 1, "THST", "json_len"},
		{"json_len short", "", good, int64(len(good)) - 1, 1, "THST", "footer JSON"},
		{"json_len zero", "", good, 0, 1, "THST", "footer JSON"},
		{"invalid JSON", "", `{"history": [`, -1, 1, "THST", "footer JSON"},
		{"JSON garbage", "", "\xff\xfe garbage \x00", -1, 1, "THST", "footer JSON"},
		{"JSON array", "", `[1,2,3]`, -1, 1, "THST", "footer JSON"},
		{"history not array", "", `{"history":{"op":"x"}}`, -1, 1, "THST", "footer JSON"},
		{"history numeric at", "", `{"history":[{"op":"a","source":"b","at":17}]}`, -1, 1, "THST", "history row 0"},
		{"legacy history wrong length", "", `{"history":[["op","src"]]}`, -1, 1, "THST", "legacy row has 2 elements"},
		{"metadata not object", "", `{"metadata":[1]}`, -1, 1, "THST", "metadata JSON"},
		{"metadata_ref offset 0", "", `{"metadata_ref":{"offset":0,"len":4}}`, -1, 1, "THST", "metadata_ref"},
		{"metadata_ref past JSON", "", fmt.Sprintf(`{"metadata_ref":{"offset":%d,"len":4}}`, n), -1, 1, "THST", "metadata_ref"},
		{"metadata_ref overflow", "", `{"metadata_ref":{"offset":18446744073709551615,"len":2}}`, -1, 1, "THST", "metadata_ref"},
		{"metadata_ref negative", "", `{"metadata_ref":{"offset":-1,"len":2}}`, -1, 1, "THST", "footer JSON"},
		{"metadata_ref into index", "", fmt.Sprintf(`{"metadata_ref":{"offset":%d,"len":50}}`, s.index+40), -1, 1, "THST", "metadata_ref"},
		{"metadata_ref into payloads", "", fmt.Sprintf(`{"metadata_ref":{"offset":%d,"len":10}}`, s.payloadEnd-20), -1, 1, "THST", "metadata"},
		{"v2 blob into index", "", fmt.Sprintf(`{"zone_maps_ref":{"offset":%d,"len":10}}`, s.index), -1, 2, "THST", "footer blob"},
		{"v2 blob overflow", "", `{"secondary_index_ref":{"offset":18446744073709551615,"len":10}}`, -1, 2, "THST", "footer blob"},
		{"metadata and metadata_ref", goodMeta, `{"metadata":{},"metadata_ref":{"offset":` + fmt.Sprint(n) + `,"len":` + fmt.Sprint(len(goodMeta)) + `}}`, -1, 1, "THST", "both metadata and metadata_ref"},
		{"labels count wrong", "", `{"metadata":{"datasets":{"f32":{"dim_names":["time","station"],"coords":{"time":{"labels":["a","b"]}}}}}}`, -1, 1, "THST", `dim "time" has 2 labels for size 6`},
		{"labels on unnamed axis", "", `{"metadata":{"datasets":{"i64":{"coords":{"d0":{"labels":["a"]}}}}}}`, -1, 1, "THST", `has 1 labels for size 9`},
		{"dim_names count wrong", "", `{"metadata":{"datasets":{"f32":{"dim_names":["time"]}}}}`, -1, 1, "THST", "1 dim_names for rank 2"},
		{"coords for unknown dim", "", `{"metadata":{"datasets":{"f32":{"dim_names":["a","b"],"coords":{"c":{"labels":[]}}}}}}`, -1, 1, "THST", `unknown dim "c"`},
		{"metadata for unknown dataset", "", `{"metadata":{"datasets":{"nope":{"attrs":{"x":"y"}},"f32":{"attrs":{"units":"K"}}}}}`, -1, 1, "THST", `unknown dataset "nope"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := withFooter(s, tc.spill, tc.json, tc.jsonLen, tc.version, tc.magic)
			if tc.name == "json_len max" {
				binary.LittleEndian.PutUint64(b[len(b)-16:], math.MaxUint64)
			}
			f, err := tetcore.Parse(b)
			if err != nil {
				t.Fatalf("damaged footer made the file unreadable: %v", err)
			}
			st := f.FooterStatus()
			if !f.HasFooter() || !strings.HasPrefix(st, "damaged: ") || !strings.Contains(st, tc.status) {
				t.Errorf("footer status %q, want damage mentioning %q", st, tc.status)
			}
			checkContents(t, f, s)
			rep, err := f.VerifyReport(tetcore.VerifyDeep)
			if err != nil || !rep.OK() || len(rep.Findings) != 1 || rep.Findings[0].Severity != "warning" ||
				!strings.Contains(rep.Findings[0].Message, tc.status) {
				t.Errorf("verify: %v %+v", err, rep)
			}
		})
	}
}

// TestFooter_partialMetadataKept checks that a rejected entry drops only
// itself: the rest of the metadata still applies.
func TestFooter_partialMetadataKept(t *testing.T) {
	t.Parallel()
	s := buildSample(t, false)
	js := `{"metadata":{"datasets":{"f32":{"dim_names":["time","station"],"coords":{"time":{"labels":["a"]},` +
		`"station":{"labels":["A","B","C","D","E"]}},"attrs":{"units":"K"}},"i64":{"dim_names":["x","y"]}}}}`
	f, err := tetcore.Parse(withFooter(s, "", js, -1, 1, "THST"))
	if err != nil {
		t.Fatal(err)
	}
	if st := f.FooterStatus(); !strings.HasPrefix(st, "damaged: ") || !strings.HasSuffix(st, "(and 1 more)") || len(f.Footer.Problems) != 2 {
		t.Errorf("status %q problems %q", st, f.Footer.Problems)
	}
	ds, _ := f.Dataset("f32")
	if !reflect.DeepEqual(ds.DimNames, []string{"time", "station"}) || ds.Labels == nil || ds.Labels[0] != nil ||
		!reflect.DeepEqual(ds.Labels[1], []string{"A", "B", "C", "D", "E"}) || ds.Attrs["units"] != "K" {
		t.Errorf("f32 metadata: %v %v %v", ds.DimNames, ds.Labels, ds.Attrs)
	}
	if i64, _ := f.Dataset("i64"); i64.DimNames != nil || i64.DimName(0) != "d0" {
		t.Errorf("i64 dim names %v", i64.DimNames)
	}
}

// TestFooter_accepted covers footers that are fine: legacy history rows,
// a metadata spill, footer version 2, and non-string attrs.
func TestFooter_accepted(t *testing.T) {
	t.Parallel()
	s := buildSample(t, false)
	legacy := `{"history":[["legacy-op","old.tet","1600000000"],{"op":"convert","source":"x.nc","at":"2","parents":["p"],"params":{"k":"v"}}],"metadata":` + goodMeta + `}`
	spillJSON := fmt.Sprintf(`{"metadata_ref":{"offset":%d,"len":%d}}`, s.payloadEnd, len(goodMeta))
	for _, tc := range []struct {
		name, spill, json string
		version           uint32
		history           int
	}{
		{"legacy history", "", legacy, 1, 2},
		{"version 2", "", legacy, 2, 2},
		{"spill", goodMeta, spillJSON, 1, 0},
		{"empty object", "", `{}`, 1, 0},
		{"null metadata", "", `{"metadata":null,"history":[]}`, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := tetcore.Parse(withFooter(s, tc.spill, tc.json, -1, tc.version, "THST"))
			if err != nil {
				t.Fatal(err)
			}
			if f.FooterStatus() != "ok" || len(f.Footer.History) != tc.history {
				t.Fatalf("status %q history %+v", f.FooterStatus(), f.Footer.History)
			}
			if tc.history == 2 {
				want := tetcore.HistoryRow{Op: "legacy-op", Source: "old.tet", At: "1600000000"}
				if f.Footer.History[0].Op != want.Op || f.Footer.History[0].Source != want.Source || f.Footer.History[0].At != want.At ||
					!reflect.DeepEqual(f.Footer.History[1].Params, map[string]string{"k": "v"}) {
					t.Errorf("history %+v", f.Footer.History)
				}
			}
			if strings.Contains(tc.json, "metadata_ref") || strings.Contains(tc.json, goodMeta) {
				ds, _ := f.Dataset("f32")
				if ds.DimName(1) != "station" || ds.Labels[0][5] != "t5" || ds.Attrs["scale"] != "2.5" || f.Footer.FileMeta["tool"] != "test" {
					t.Errorf("metadata %v %v %v %v", ds.DimNames, ds.Labels, ds.Attrs, f.Footer.FileMeta)
				}
			}
			checkContents(t, f, s)
		})
	}
}

// TestFooter_referencePlan opens the reference fixture whose footer JSON
// is garbage: the data (1..6) must be intact.
func TestFooter_referencePlan(t *testing.T) {
	t.Parallel()
	f, err := tetcore.Open(filepath.Join("..", "testdata", "reference", "plan.tet"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !f.HasFooter() || !strings.HasPrefix(f.FooterStatus(), "damaged: footer JSON") {
		t.Errorf("footer status %q", f.FooterStatus())
	}
	ds, err := f.Dataset("a")
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range readAll(t, f, ds) {
		if v != float64(i+1) {
			t.Errorf("a[%d] = %v", i, v)
		}
	}
	if f.Footer.History != nil || ds.DimNames != nil || ds.Attrs != nil {
		t.Errorf("metadata from a garbage footer: %+v %v", f.Footer, ds.DimNames)
	}
	rep, err := f.VerifyReport(tetcore.VerifyDeep)
	if err != nil || !rep.OK() || rep.DecodedChunks != 2 || len(rep.Findings) != 1 || !strings.Contains(rep.Findings[0].String(), "footer damaged") {
		t.Errorf("verify: %v %+v", err, rep)
	}
}

// TestBudgetHints round-trips the index's memory-budget fields.
func TestBudgetHints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		bps   uint16
		bytes uint32
	}{{0, 0}, {1, 1}, {10000, math.MaxUint32}, {2500, 1 << 28}} {
		path := filepath.Join(t.TempDir(), "b.tet")
		w, err := tetcore.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w.AddDataset(tetcore.DatasetSpec{Name: "a", DType: tetcore.U8, Shape: []int64{3}, ChunkShape: []int64{2}})
		w.SetMemoryBudget(tc.bps, tc.bytes)
		if err := w.WriteDataset([]byte{1, 2, 3}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f, err := tetcore.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if f.MemoryBudgetBPS != tc.bps || f.MemoryBudgetBytes != tc.bytes {
			t.Errorf("budget %d/%d, want %d/%d", f.MemoryBudgetBPS, f.MemoryBudgetBytes, tc.bps, tc.bytes)
		}
		f.Close()
	}
}
