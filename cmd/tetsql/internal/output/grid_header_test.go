package output_test

import (
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// TestColumnHeader: column mode prints its header and dashes only with
// Options.Header, as sqlite3 does with .headers off; the names still
// size the columns (sqlite3 3.40 pads "a" to the width of "xxxxx").
// Box, table and markdown keep their header, as in sqlite3.
func TestColumnHeader(t *testing.T) {
	t.Parallel()
	cols := []output.Column{{Name: "xxxxx", Type: "TEXT"}, {Name: "y", Type: "INTEGER"}}
	rows := [][]any{{"a", int64(1)}, {"bb", int64(22)}}
	tests := []struct {
		name   string
		mode   output.Mode
		header bool
		rows   [][]any
		want   string
	}{
		{"column, header", output.ColumnMode, true, rows, "xxxxx  y\n-----  --\na      1\nbb     22\n"},
		{"column, no header", output.ColumnMode, false, rows, "a      1\nbb     22\n"},
		{"column, no header, no rows", output.ColumnMode, false, nil, ""},
		{"table, no header option", output.Table, false, rows[:1],
			"+-------+---+\n| xxxxx | y |\n+-------+---+\n| a     | 1 |\n+-------+---+\n"},
		{"markdown, no header option", output.Markdown, false, rows[:1],
			"| xxxxx | y |\n|-------|--:|\n| a     | 1 |\n"},
	}
	for _, tt := range tests {
		got := string(render(t, tt.mode, output.Options{Header: tt.header}, cols, tt.rows))
		if got != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}
