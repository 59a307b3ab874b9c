package tetsql_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tgmDoc is what the SQL tests read of tgm/testdata/expected.json (see
// the README beside it): the datasets of each file and the refusals.
type tgmDoc struct {
	Files []struct {
		File     string       `json:"file"`
		Datasets []tgmDataset `json:"datasets"`
	} `json:"files"`
	Refuse []struct {
		File     string   `json:"file"`
		Mentions []string `json:"error_mentions_any"`
	} `json:"refuse"`
}

type tgmDataset struct {
	Name    string      `json:"name"`
	Stacked bool        `json:"stacked"`
	DType   string      `json:"dtype"`
	Shape   []int64     `json:"shape"`
	Count   int64       `json:"count"`
	NaN     int64       `json:"nan_count"`
	PosInf  int64       `json:"posinf_count"`
	NegInf  int64       `json:"neginf_count"`
	Sum     json.Number `json:"sum"`
	Min     json.Number `json:"min"`
	Max     json.Number `json:"max"`
	Probes  []tgmProbe  `json:"probes"`
	Members [][2]int    `json:"members"`
}

type tgmProbe struct {
	Index []int64 `json:"index"`
	Value any     `json:"value"`
}

// tgmPath is a Tensogram fixture's path.
func tgmPath(name string) string { return filepath.Join("tgm", "testdata", name) }

func loadTgm(t *testing.T) tgmDoc {
	t.Helper()
	b, err := os.ReadFile(tgmPath("expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc tgmDoc
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil || len(doc.Files) == 0 || len(doc.Refuse) == 0 {
		t.Fatalf("expected.json: %v", err)
	}
	return doc
}

// tgmInt reports whether a dataset's values are integers in SQL.
func (d *tgmDataset) isInt() bool {
	return strings.HasPrefix(d.DType, "int") || strings.HasPrefix(d.DType, "uint")
}

// tgmDims is the dataset's dim names as tet_datasets lists them.
func tgmDims(t *testing.T, conn *sql.Conn, name string) []string {
	t.Helper()
	var dims string
	if err := conn.QueryRowContext(context.Background(), "SELECT dim_names FROM tet_datasets WHERE name = ?", name).Scan(&dims); err != nil {
		t.Fatalf("tet_datasets %s: %v", name, err)
	}
	return decodeJSON[[]string](t, dims)
}

// TestTgmSQL_fixtures opens every Tensogram fixture through a DSN and
// checks each dataset against expected.json: shape and message axis in
// tet_datasets, count, NaN and ±Inf counts, sum, min and max of the
// finite values, the probed cells (one equality per dim), and the _agg
// companion's counts. Complex objects have no table and are named in
// the file's "unmapped" attribute.
func TestTgmSQL_fixtures(t *testing.T) {
	t.Parallel()
	for _, f := range loadTgm(t).Files {
		t.Run(strings.TrimSuffix(f.File, ".tgm"), func(t *testing.T) {
			t.Parallel()
			conn, err := tryConn(t, tgmPath(f.File)+"?agg_rewrite=false")
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			var format string
			if err := conn.QueryRowContext(ctx, "SELECT format FROM tet_file").Scan(&format); err != nil || format != "tgm" {
				t.Errorf("tet_file format %q, %v", format, err)
			}
			for _, d := range f.Datasets {
				if strings.HasPrefix(d.DType, "complex") {
					var unmapped string
					err := conn.QueryRowContext(ctx, "SELECT value FROM tet_attrs WHERE key = 'unmapped'").Scan(&unmapped)
					if err != nil || !strings.Contains(unmapped, d.DType) {
						t.Errorf("unmapped %q (%v), want it to name %s", unmapped, err, d.DType)
					}
					if _, err := conn.QueryContext(ctx, "SELECT * FROM "+quoteID(d.Name)); err == nil || !strings.Contains(err.Error(), "no such table") {
						t.Errorf("%s: %v, want no such table", d.Name, err)
					}
					continue
				}
				checkTgmDataset(t, conn, &d)
			}
		})
	}
}

// checkTgmDataset runs the SQL checks of one dataset.
func checkTgmDataset(t *testing.T, conn *sql.Conn, d *tgmDataset) {
	t.Helper()
	ctx := context.Background()
	var shape string
	if err := conn.QueryRowContext(ctx, "SELECT shape FROM tet_datasets WHERE name = ?", d.Name).Scan(&shape); err != nil {
		t.Fatalf("%s: %v", d.Name, err)
	}
	if got := decodeJSON[[]int64](t, shape); !equalInts(got, d.Shape) {
		t.Errorf("%s: shape %v, want %v", d.Name, got, d.Shape)
	}
	dims := tgmDims(t, conn, d.Name)
	if (len(dims) > 0 && dims[0] == "message") != d.Stacked {
		t.Errorf("%s: dims %v, stacked %v", d.Name, dims, d.Stacked)
	}
	id := quoteID(d.Name)
	var count, nonNull, pinf, ninf int64
	q := "SELECT count(*), count(value), count(*) FILTER (WHERE value = 1e999), count(*) FILTER (WHERE value = -1e999) FROM " + id
	if err := conn.QueryRowContext(ctx, q).Scan(&count, &nonNull, &pinf, &ninf); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if count != d.Count || count-nonNull != d.NaN || pinf != d.PosInf || ninf != d.NegInf {
		t.Errorf("%s: count %d NaN %d +Inf %d -Inf %d; want %d %d %d %d", d.Name, count, count-nonNull, pinf, ninf, d.Count, d.NaN, d.PosInf, d.NegInf)
	}
	var aggCount, aggNulls int64
	if err := conn.QueryRowContext(ctx, "SELECT count, null_count FROM "+quoteID(d.Name+"_agg")).Scan(&aggCount, &aggNulls); err != nil ||
		aggCount != nonNull || aggNulls != count-nonNull {
		t.Errorf("%s_agg: count %d null_count %d (%v); cells %d, %d", d.Name, aggCount, aggNulls, err, nonNull, count-nonNull)
	}
	if d.isInt() {
		checkTgmIntSum(t, conn, d)
	} else if d.Sum != "" {
		var sum, lo, hi float64
		q := "SELECT sum(value), min(value), max(value) FROM " + id + " WHERE value > -1e999 AND value < 1e999"
		if err := conn.QueryRowContext(ctx, q).Scan(&sum, &lo, &hi); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		want, _ := d.Sum.Float64()
		wlo, _ := d.Min.Float64()
		whi, _ := d.Max.Float64()
		if math.Abs(sum-want) > 1e-9*math.Max(1, math.Abs(want)) || lo != wlo || hi != whi {
			t.Errorf("%s: sum %v min %v max %v; want %v %v %v", d.Name, sum, lo, hi, want, wlo, whi)
		}
	}
	probe := "SELECT value FROM " + id + whereDims(dims)
	for _, p := range d.Probes {
		args := make([]any, len(p.Index))
		for i, x := range p.Index {
			args[i] = x
		}
		var v any
		if err := conn.QueryRowContext(ctx, probe, args...).Scan(&v); err != nil {
			t.Fatalf("%s %v: %v", probe, p.Index, err)
		}
		if !sameProbe(v, p.Value) {
			t.Errorf("%s%v = %v, want %v", d.Name, p.Index, v, p.Value)
		}
	}
}

// checkTgmIntSum sums an integer dataset exactly from its rows (SQLite's
// sum() overflows on the int64 extremes); u64 values above 2^63−1 come
// back as REAL and are compared through min/max only.
func checkTgmIntSum(t *testing.T, conn *sql.Conn, d *tgmDataset) {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), "SELECT value FROM "+quoteID(d.Name))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	sum, exact := new(big.Int), true
	for rows.Next() {
		var v any
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		switch x := v.(type) {
		case int64:
			sum.Add(sum, big.NewInt(x))
		case float64:
			exact = false
		default:
			t.Fatalf("%s: %T %v", d.Name, v, v)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if exact && d.Sum != "" && sum.String() != d.Sum.String() {
		t.Errorf("%s: sum %s, want %s", d.Name, sum, d.Sum)
	}
}

// sameProbe compares a cell from SQL with an expected probe value (null
// is NaN, "inf"/"-inf" infinities; numbers exactly).
func sameProbe(got, want any) bool {
	switch w := want.(type) {
	case nil:
		return got == nil
	case string:
		f, ok := got.(float64)
		return ok && ((w == "inf" && math.IsInf(f, 1)) || (w == "-inf" && math.IsInf(f, -1)))
	case json.Number:
		switch g := got.(type) {
		case int64:
			return w.String() == big.NewInt(g).String()
		case float64:
			wf, err := w.Float64()
			return err == nil && wf == g
		}
	}
	return false
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
