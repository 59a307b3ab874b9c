package memformat

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tetsql/tetsql/array"
)

// tableJSON is one entry of the optional "tables" section: a metadata
// table of the format's own (array.TableProvider).
//
//	{"name": "mem_notes", "columns": [["k", "TEXT"], ["n", "INTEGER"]],
//	 "rows": [["a", 1], ["b", null], ["c", {"hex": "00ff"}]],
//	 "error": "index damaged"}
//
// Values are JSON null, numbers (an integer is an int64, any other
// number a float64), strings, {"hex": "…"} for a blob, and true/false,
// given on as Go bools, which the contract does not allow: the section
// is handed to the SQL layer as written (names, types and row lengths
// are not checked), so that tests can exercise its checks. "error"
// makes Rows fail with that message after yielding every row.
type tableJSON struct {
	Name    string              `json:"name"`
	Columns [][2]string         `json:"columns"`
	Rows    [][]json.RawMessage `json:"rows"`
	Error   string              `json:"error"`
}

// buildTable converts a table entry; the rows are decoded here, once.
func buildTable(tj *tableJSON) (array.Table, error) {
	t := array.Table{Name: tj.Name}
	for _, c := range tj.Columns {
		t.Columns = append(t.Columns, array.Column{Name: c[0], Type: c[1]})
	}
	rows := make([][]any, len(tj.Rows))
	for i, raw := range tj.Rows {
		rows[i] = make([]any, len(raw))
		for j, v := range raw {
			x, err := tableValue(v)
			if err != nil {
				return t, fmt.Errorf("table %q row %d value %d: %v: %w", tj.Name, i, j, err, array.ErrCorrupt)
			}
			rows[i][j] = x
		}
	}
	fail := tj.Error
	t.Rows = func(yield func([]any) bool) error {
		for _, r := range rows {
			if !yield(r) {
				return nil
			}
		}
		if fail != "" {
			return errors.New(fail)
		}
		return nil
	}
	return t, nil
}

// tableValue decodes one value of a row.
func tableValue(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case nil, string, bool:
		return x, nil
	case json.Number:
		if !strings.ContainsAny(x.String(), ".eE") {
			return x.Int64()
		}
		return x.Float64()
	case map[string]any:
		if h, ok := x["hex"].(string); ok && len(x) == 1 {
			return hex.DecodeString(h)
		}
	}
	return nil, fmt.Errorf("%s is not null, a number, a string, a bool or {\"hex\": \"…\"}", raw)
}

// Tables implements array.TableProvider: the file's "tables" section,
// none when it has none.
func (s *source) Tables() []array.Table { return s.tables }
