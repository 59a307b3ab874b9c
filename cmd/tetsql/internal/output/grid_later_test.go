package output_test

import (
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// TestGrid_laterWiderText: a text cell of a row after the window that
// is wider than its column is cut to it with "…" on a terminal
// (FitWidth), so the grid keeps within the window; a later, wider
// number still widens its row; off a terminal, and in markdown, the
// text widens its row as before.
func TestGrid_laterWiderText(t *testing.T) {
	t.Parallel()
	cols := []output.Column{{Name: "name", Type: "TEXT"}, {Name: "n", Type: "INTEGER"}}
	rows := [][]any{{"ab", int64(1)}, {"cd", int64(2)}, {"abcdefghij", int64(3)}, {"ef", int64(123456)}}
	tests := []struct {
		name string
		mode output.Mode
		fit  int
		want string
	}{
		{"box on a terminal", output.Box, 80,
			"┌──────┬───┐\n" +
				"│ name │ n │\n" +
				"├──────┼───┤\n" +
				"│ ab   │ 1 │\n" +
				"│ cd   │ 2 │\n" +
				"│ abc… │ 3 │\n" +
				"│ ef   │ 123456 │\n" +
				"└──────┴───┘\n"},
		{"column on a terminal", output.ColumnMode, 80,
			"name  n\n----  -\nab    1\ncd    2\nabc…  3\nef    123456\n"},
		{"box off a terminal", output.Box, 0,
			"┌──────┬───┐\n" +
				"│ name │ n │\n" +
				"├──────┼───┤\n" +
				"│ ab   │ 1 │\n" +
				"│ cd   │ 2 │\n" +
				"│ abcdefghij │ 3 │\n" +
				"│ ef   │ 123456 │\n" +
				"└──────┴───┘\n"},
		{"markdown is not fitted", output.Markdown, 80,
			"| name | n |\n|------|--:|\n| ab   | 1 |\n| cd   | 2 |\n| abcdefghij | 3 |\n| ef   | 123456 |\n"},
	}
	for _, tt := range tests {
		opts := output.WithWindow(output.Options{Header: true, FitWidth: tt.fit}, 2)
		if got := string(render(t, tt.mode, opts, cols, rows)); got != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}
