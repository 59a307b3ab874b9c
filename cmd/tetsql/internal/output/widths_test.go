package output_test

import (
	"bytes"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// TestWidths checks Options.Widths (sqlite3's .width) in the grid modes:
// fixed widths pad, cut text with "…" but never numbers, a negative
// width right-aligns, 0 and missing entries size the column to its cells.
func TestWidths(t *testing.T) {
	t.Parallel()
	cols := []output.Column{{Name: "name", Type: "TEXT"}, {Name: "n", Type: "INTEGER"}, {Name: "note"}}
	rows := [][]any{{"abcdefgh", int64(123456), "x"}, {"ab", int64(7), nil}}
	tests := []struct {
		name   string
		mode   output.Mode
		widths []int
		max    int
		want   string
	}{
		{name: "column: cut, pad, numbers kept, auto, all left", mode: output.ColumnMode, widths: []int{4, 2},
			want: "name  n       note\n----  ------  ----\nabc…  123456  x\nab    7\n"},
		{name: "column: negative right-aligns the header too", mode: output.ColumnMode, widths: []int{-6, 0, 3},
			want: "  name  n       no…\n------  ------  ---\nabcde…  123456  x\n    ab  7\n"},
		{name: "box: a wide fixed column", mode: output.Box, widths: []int{10},
			want: "┌────────────┬────────┬──────┐\n" +
				"│    name    │   n    │ note │\n" +
				"├────────────┼────────┼──────┤\n" +
				"│ abcdefgh   │ 123456 │ x    │\n" +
				"│ ab         │      7 │      │\n" +
				"└────────────┴────────┴──────┘\n"},
		{name: "table: negative and cut", mode: output.Table, widths: []int{-3, 0, 0},
			want: "+-----+--------+------+\n" +
				"| na… |   n    | note |\n" +
				"+-----+--------+------+\n" +
				"| ab… | 123456 | x    |\n" +
				"|  ab |      7 |      |\n" +
				"+-----+--------+------+\n"},
		{name: "a width overrides MaxWidth, 0 leaves it", mode: output.Table, widths: []int{8, 0, 0}, max: 3,
			want: "+----------+--------+-----+\n" +
				"|   name   |   n    | no… |\n" +
				"+----------+--------+-----+\n" +
				"| abcdefgh | 123456 | x   |\n" +
				"| ab       |      7 |     |\n" +
				"+----------+--------+-----+\n"},
		{name: "markdown", mode: output.Markdown, widths: []int{5},
			want: "| name  |   n    | note |\n|-------|-------:|------|\n| abcd… | 123456 | x    |\n| ab    |      7 |      |\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(render(t, tt.mode, output.Options{Header: true, Widths: tt.widths, MaxWidth: tt.max}, cols, rows))
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestWidths_fit: fitting a grid to the terminal narrows the automatic
// columns, never one whose width Options.Widths sets.
func TestWidths_fit(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	w, err := output.New(output.Table, &b, output.Options{Widths: []int{15}, FitWidth: 30})
	if err != nil {
		t.Fatal(err)
	}
	w.Header([]output.Column{{Name: "a", Type: "TEXT"}, {Name: "b", Type: "TEXT"}})
	w.Row([]any{"aaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbb"})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := "+-----------------+----------+\n" +
		"|        a        |    b     |\n" +
		"+-----------------+----------+\n" +
		"| aaaaaaaaaaaaaa… | bbbbbbb… |\n" +
		"+-----------------+----------+\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
