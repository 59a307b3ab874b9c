package tgm

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// TestTables holds tgm_messages and tgm_objects of every fixture to
// expected.json: one row per message and per object, in file order,
// with layout, descriptor, metadata JSON and the dataset each object
// belongs to.
func TestTables(t *testing.T) {
	doc := loadExpected(t, "testdata")
	dsDoc := loadDatasets(t, "testdata")
	for fi, f := range doc.Files {
		t.Run(strings.TrimSuffix(f.File, ".tgm"), func(t *testing.T) {
			s, err := Open(filepath.Join("testdata", f.File), array.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			tables := s.Tables()
			if len(tables) != 2 || tables[0].Name != "tgm_messages" || tables[1].Name != "tgm_objects" {
				t.Fatalf("tables %+v", tables)
			}
			msgs := collect(t, tables[0])
			objs := collect(t, tables[1])
			if len(msgs) != len(f.Messages) {
				t.Fatalf("%d message rows, want %d", len(msgs), len(f.Messages))
			}
			datasetOf := map[[2]int]any{}
			for _, ed := range dsDoc.Files[fi].Datasets {
				for _, m := range ed.Members {
					datasetOf[m] = ed.Name
					if !mapped(ed.DType) {
						datasetOf[m] = nil
					}
				}
			}
			k := 0
			for i, em := range f.Messages {
				r := msgs[i]
				want := []any{int64(i), em.Offset, em.Length, b2i(em.Streaming), int64(len(em.Objects)), b2i(em.Hashes)}
				if !reflect.DeepEqual(r[:6], want) {
					t.Errorf("message row %v, want %v", r[:6], want)
				}
				var md map[string]any
				if err := json.Unmarshal([]byte(r[6].(string)), &md); err != nil || md["base"] != nil {
					t.Errorf("message %d metadata %v: %v", i, r[6], err)
				}
				extra := md["_extra_"]
				if extra == nil {
					extra = map[string]any{} // an empty _extra_ may be absent on the wire
				}
				sameJSON(t, "_extra_", extra, em.Metadata["_extra_"])
				for _, eo := range em.Objects {
					if k >= len(objs) {
						t.Fatalf("%d object rows", len(objs))
					}
					r := objs[k]
					k++
					shape, _ := json.Marshal(append([]int64{}, eo.Shape...))
					want := []any{int64(i), int64(eo.Object), eo.Name, datasetOf[[2]int{i, eo.Object}], eo.DType,
						string(shape), eo.Encoding, eo.Filter, eo.Compression}
					if !reflect.DeepEqual(r[:9], want) {
						t.Errorf("object row %v, want %v", r[:9], want)
					}
					var got any
					if err := json.Unmarshal([]byte(r[12].(string)), &got); err != nil {
						t.Fatal(err)
					}
					sameJSON(t, "object metadata", got, eo.Metadata)
				}
			}
			if k != len(objs) {
				t.Errorf("%d object rows, want %d", len(objs), k)
			}
		})
	}
}

// collect reads every row of a table, checking each has one value per
// column of an allowed Go type.
func collect(t *testing.T, tb array.Table) [][]any {
	t.Helper()
	var rows [][]any
	err := tb.Rows(func(r []any) bool {
		if len(r) != len(tb.Columns) {
			t.Fatalf("%s: row of %d values for %d columns", tb.Name, len(r), len(tb.Columns))
		}
		for _, v := range r {
			switch v.(type) {
			case nil, int64, float64, string, []byte:
			default:
				t.Fatalf("%s: value %T", tb.Name, v)
			}
		}
		rows = append(rows, r)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	stopped := 0
	_ = tb.Rows(func([]any) bool { stopped++; return false })
	if len(rows) > 0 && stopped != 1 {
		t.Errorf("%s: yield returning false was called again (%d calls)", tb.Name, stopped)
	}
	return rows
}

// TestSourceLimitAndDescribe: a chunk above Options.MaxChunkBytes is
// refused as too large; Describe names the format; a file without
// digests verifies with a warning saying so; a closed source refuses
// reads.
func TestSourceLimitAndDescribe(t *testing.T) {
	path := filepath.Join("testdata", "forecast.tgm")
	s, err := Open(path, array.Options{MaxChunkBytes: 95})
	if err != nil {
		t.Fatal(err)
	}
	d := s.Describe()
	if d.Format != "tgm" || d.LayoutVersion != 3 || d.Footer != "ok" || d.Size != 8288 {
		t.Errorf("describe %+v", d)
	}
	if _, err := s.Arrays()[0].ReadChunk(0, nil); !errors.Is(err, array.ErrTooLarge) {
		t.Errorf("96-byte chunk under a 95-byte limit: %v", err)
	}
	if b, err := s.Arrays()[3].ReadChunk(0, nil); err != nil || len(b) != 24 {
		t.Errorf("24-byte chunk: %d bytes, %v", len(b), err)
	}
	if fs, err := s.Verify(false, 0); err != nil || len(fs) != 0 {
		t.Errorf("verify: %+v, %v", fs, err)
	}
	s.Close()
	if _, err := s.Arrays()[3].ReadChunk(0, nil); !errors.Is(err, array.ErrClosed) {
		t.Errorf("read after close: %v", err)
	}
	s, err = Open(filepath.Join("testdata", "dtypes.tgm"), array.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fs, err := s.Verify(true, 0)
	if err != nil || len(fs) != 1 || fs[0].Severity != "warning" || !strings.Contains(fs[0].Message, "hash") {
		t.Errorf("verify of a file without hashes: %+v, %v", fs, err)
	}
	c, err := Open(filepath.Join("testdata", "dtypes_complex.tgm"), array.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fs, err = c.Verify(true, 0)
	if err != nil || len(fs) != 2 || fs[0].Severity != "warning" || !strings.Contains(fs[0].Message, "complex64") || !strings.Contains(fs[1].Message, "complex128") {
		t.Errorf("verify of objects in no dataset: %+v, %v", fs, err)
	}
}
