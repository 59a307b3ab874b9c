package tetsql_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// b2ndDir holds the Blosc2 NDim fixtures and their expected.json.
var b2ndDir = filepath.Join("b2nd", "testdata")

// b2ndFixture is one entry of b2nd/testdata/expected.json (see
// /b2nd/testdata and the fixtures' README for the fields). Numbers stay
// json.Number so that integer sums beyond 2^64 are exact.
type b2ndFixture struct {
	File            string                     `json:"file"`
	Dataset         string                     `json:"dataset"`
	DType           *string                    `json:"dtype"`
	Shape           []int64                    `json:"shape"`
	Chunks          []int64                    `json:"chunks"`
	DimNames        []string                   `json:"dim_names"`
	Attrs           map[string]json.RawMessage `json:"attrs"`
	ValuesUndefined bool                       `json:"values_undefined"`
	ExpectError     *string                    `json:"expect_error"`
	OnDisk          struct {
		Frame   string `json:"frame"`
		NChunks int64  `json:"nchunks"`
	} `json:"on_disk"`
	Expected struct {
		Count    int64       `json:"count"`
		NaNCount int64       `json:"nan_count"`
		Sum      json.Number `json:"sum"` // "" for null
		Min      json.Number `json:"min"`
		Max      json.Number `json:"max"`
		SumAbs   json.Number `json:"sum_abs"`
		Probes   []struct {
			Index []int64     `json:"index"`
			Value json.Number `json:"value"` // "" for NaN
		} `json:"probes"`
		SHA256 string `json:"sha256_c_order_le"`
	} `json:"expected"`
}

// path is the fixture's file (or sparse-frame directory).
func (f *b2ndFixture) path() string { return filepath.Join(b2ndDir, f.File) }

// dims are the cells table's dim columns.
func (f *b2ndFixture) dims() []string {
	if f.DimNames != nil {
		return f.DimNames
	}
	out := make([]string, len(f.Shape))
	for i := range out {
		out[i] = fmt.Sprintf("d%d", i)
	}
	return out
}

// isInt reports an integer dtype (bool reads as u8).
func (f *b2ndFixture) isInt() bool {
	return f.DType != nil && ((*f.DType)[0] == 'i' || (*f.DType)[0] == 'u')
}

// loadB2ndFixtures reads expected.json.
func loadB2ndFixtures(t testing.TB) []*b2ndFixture {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(b2ndDir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc struct{ Files []*b2ndFixture }
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Files) < 50 {
		t.Fatalf("only %d fixtures in expected.json", len(doc.Files))
	}
	return doc.Files
}

// b2ndFixtureNamed returns the fixture whose file is name.
func b2ndFixtureNamed(t testing.TB, name string) *b2ndFixture {
	t.Helper()
	for _, f := range loadB2ndFixtures(t) {
		if f.File == name {
			return f
		}
	}
	t.Fatalf("no fixture %s in expected.json", name)
	return nil
}

// tryConn opens dsn and takes a connection, returning the error of the
// open (files are opened when the first connection is made) instead of
// failing the test.
func tryConn(t testing.TB, dsn string) (*sql.Conn, error) {
	t.Helper()
	db, err := sql.Open("tetsql", dsn)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(context.Background())
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { conn.Close() })
	return conn, nil
}

// whereDims is "a=? AND b=? …" over the dims (empty for rank 0).
func whereDims(dims []string) string {
	terms := make([]string, len(dims))
	for i, d := range dims {
		terms[i] = quoteID(d) + " = ?"
	}
	if len(terms) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(terms, " AND ")
}

// quoteID quotes an SQL identifier.
func quoteID(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// decodeJSON decodes s (numbers as float64) or fails the test.
func decodeJSON[T any](t testing.TB, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("JSON %q: %v", s, err)
	}
	return v
}

// sameSQLNumber reports two values from SQL of the same type and value
// (floats bit for bit).
func sameSQLNumber(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	default:
		return a == b
	}
}

// toFloat is an INTEGER or REAL from SQL as a float64 (NaN for NULL).
func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return math.NaN()
}

// parseF parses an expected number.
func parseF(t testing.TB, n json.Number) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(n.String(), 64)
	if err != nil {
		t.Fatalf("expected number %q: %v", n, err)
	}
	return f
}
