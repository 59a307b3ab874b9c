package tetsql_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestTgmSQL_tables queries tgm_messages and tgm_objects of every
// fixture and compares them with expected.json: one row per message
// (offset, length, streaming, object count, hashes) and per object
// (name, dtype, shape, stages, the metadata JSON as json_extract reads
// it), and each object's dataset is a dataset of tet_datasets that lists
// it among its members (NULL for complex objects).
func TestTgmSQL_tables(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(tgmPath("expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Files []struct {
			File     string `json:"file"`
			Messages []struct {
				Offset, Length    int64
				Streaming, Hashes bool
				Objects           []struct {
					Object                        int
					Name, DType                   string
					Shape                         []int64
					Encoding, Filter, Compression string
					Metadata                      map[string]any
				}
			}
			Datasets []struct {
				Name    string
				DType   string
				Members [][2]int
			}
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	b2i := map[bool]int64{false: 0, true: 1}
	for _, f := range doc.Files {
		t.Run(strings.TrimSuffix(f.File, ".tgm"), func(t *testing.T) {
			t.Parallel()
			_, conn := openConn(t, tgmPath(f.File))
			dataset := map[[2]int]any{}
			for _, d := range f.Datasets {
				for _, m := range d.Members {
					if !strings.HasPrefix(d.DType, "complex") {
						dataset[m] = d.Name
					}
				}
			}
			rows := groupRows(t, conn, "SELECT message, offset, length, streaming, object_count, hashes FROM tgm_messages ORDER BY message")
			if len(rows) != len(f.Messages) {
				t.Fatalf("%d tgm_messages rows, want %d", len(rows), len(f.Messages))
			}
			for i, m := range f.Messages {
				want := []any{int64(i), m.Offset, m.Length, b2i[m.Streaming], int64(len(m.Objects)), b2i[m.Hashes]}
				if !sameRow(rows[i], want) {
					t.Errorf("tgm_messages row %v, want %v", rows[i], want)
				}
			}
			q := `SELECT o.name, o.dtype, o.shape, o.encoding, o.filter, o.compression, o.dataset,
				json_extract(o.metadata, '$.name'), d.name IS NOT NULL
				FROM tgm_objects o LEFT JOIN tet_datasets d ON d.name = o.dataset
				WHERE o.message = ? AND o.object = ?`
			for i, m := range f.Messages {
				for _, o := range m.Objects {
					var name, dtype, shape, enc, filt, comp string
					var ds, metaName any
					var known bool
					if err := conn.QueryRowContext(ctx, q, i, o.Object).Scan(&name, &dtype, &shape, &enc, &filt, &comp, &ds, &metaName, &known); err != nil {
						t.Fatalf("object %d/%d: %v", i, o.Object, err)
					}
					shapeJSON, _ := json.Marshal(append([]int64{}, o.Shape...))
					want := []any{o.Name, o.DType, string(shapeJSON), o.Encoding, o.Filter, o.Compression, dataset[[2]int{i, o.Object}], o.Metadata["name"]}
					got := []any{name, dtype, shape, enc, filt, comp, ds, metaName}
					if !sameRow(got, want) || known != (ds != nil) {
						t.Errorf("object %d/%d: %v (dataset listed: %v), want %v", i, o.Object, got, known, want)
					}
				}
			}
		})
	}
}

// sameRow compares two rows through their JSON texts (numbers, strings,
// NULL).
func sameRow(got, want []any) bool {
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	return string(g) == string(w)
}
