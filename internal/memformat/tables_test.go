package memformat_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/memformat"
)

// TestTables: the "tables" section becomes array.TableProvider tables,
// with every value decoded to the Go type the contract names (bools as
// written), rows stopping when yield says so, and "error" failing Rows
// after the rows.
func TestTables(t *testing.T) {
	t.Parallel()
	src, err := memformat.Format.Open(samplePath, array.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	p, ok := src.(array.TableProvider)
	if !ok {
		t.Fatalf("%T is not an array.TableProvider", src)
	}
	tables := p.Tables()
	if len(tables) != 1 || tables[0].Name != "mem_notes" {
		t.Fatalf("tables %+v", tables)
	}
	wantCols := []array.Column{{Name: "k", Type: "TEXT"}, {Name: "n", Type: "INTEGER"}, {Name: "x", Type: "REAL"}, {Name: "b", Type: "BLOB"}}
	if !reflect.DeepEqual(tables[0].Columns, wantCols) {
		t.Errorf("columns %+v, want %+v", tables[0].Columns, wantCols)
	}
	want := [][]any{
		{"a", int64(1), 0.5, []byte{0, 0xff}},
		{"b", nil, int64(-2), nil},
		{"t", int64(9007199254740993), float64(1000), []byte{}},
	}
	if got, err := allRows(tables[0], -1); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("rows %#v, %v; want %#v", got, err, want)
	}
	if got, err := allRows(tables[0], 1); err != nil || len(got) != 1 {
		t.Errorf("stopping after one row: %d rows, %v", len(got), err)
	}

	other, err := memformat.Parse([]byte(memformat.Magic + `{"tables": [
		{"name": "", "columns": [], "rows": [[true, false, 1.5e300]], "error": "index damaged"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tb := other.(array.TableProvider).Tables()[0]
	got, err := allRows(tb, -1)
	if !reflect.DeepEqual(got, [][]any{{true, false, 1.5e300}}) || err == nil || err.Error() != "index damaged" {
		t.Errorf("rows %#v, %v; want the row then the error", got, err)
	}
	none, _ := memformat.Parse([]byte(memformat.Magic + `{}`))
	if n := none.(array.TableProvider).Tables(); n != nil {
		t.Errorf("a file without tables has %v", n)
	}
}

// allRows lists a table's rows, at most limit (< 0: all).
func allRows(tb array.Table, limit int) ([][]any, error) {
	var out [][]any
	err := tb.Rows(func(r []any) bool {
		out = append(out, r)
		return len(out) != limit
	})
	return out, err
}

// TestTables_badValues: a value the section cannot carry is refused when
// the file is parsed.
func TestTables_badValues(t *testing.T) {
	t.Parallel()
	for _, v := range []string{`[1]`, `{"hex": "zz"}`, `{"hex": "00", "x": 1}`, `{"b64": "AA=="}`, `9223372036854775808`} {
		in := memformat.Magic + fmt.Sprintf(`{"tables": [{"name": "t", "columns": [["c", "TEXT"]], "rows": [[%s]]}]}`, v)
		s, err := memformat.Parse([]byte(in))
		if s != nil || !errors.Is(err, array.ErrCorrupt) || !strings.Contains(err.Error(), `table "t" row 0 value 0`) {
			t.Errorf("%s: %v, %v; want ErrCorrupt naming the value", v, s, err)
		}
	}
}
