package output_test

import (
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

func TestGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		mode output.Mode
		opts output.Options
		rows [][]any
	}{
		{"sample.box", output.Box, output.Options{}, sampleRows},
		{"sample.table", output.Table, output.Options{}, sampleRows},
		{"sample.csv", output.CSV, output.Options{Header: true}, sampleRows},
		{"sample.tsv", output.TSV, output.Options{Header: true}, sampleRows},
		{"sample.json", output.JSON, output.Options{}, sampleRows},
		{"sample.jsonl", output.JSONL, output.Options{}, sampleRows},
		{"sample.md", output.Markdown, output.Options{}, sampleRows},
		{"sample.line", output.Line, output.Options{}, sampleRows},
		{"null.csv", output.CSV, output.Options{Null: "NULL"}, sampleRows},
		{"null.tsv", output.TSV, output.Options{Null: `\N`}, sampleRows},
		{"null.box", output.Box, output.Options{Null: "NULL"}, sampleRows},
		{"maxwidth.box", output.Box, output.Options{MaxWidth: 6}, sampleRows},
		{"window.table", output.Table, output.WithWindow(output.Options{}, 3), sampleRows},
		{"fit90.box", output.Box, output.Options{FitWidth: 90}, sampleRows},
		{"fit60.box", output.Box, output.Options{FitWidth: 60}, sampleRows},
		{"fit70.table", output.Table, output.Options{FitWidth: 70}, sampleRows},
		{"fit50.column", output.ColumnMode, output.Options{Header: true, FitWidth: 50}, sampleRows},
		{"fit60.md", output.Markdown, output.Options{FitWidth: 60}, sampleRows},
		{"fit60window.box", output.Box, output.WithWindow(output.Options{FitWidth: 60}, 3), sampleRows},
		{"empty.box", output.Box, output.Options{}, nil},
		{"empty.md", output.Markdown, output.Options{}, nil},
		{"empty.csv", output.CSV, output.Options{Header: true}, nil},
		{"empty.json", output.JSON, output.Options{}, nil},
		{"empty.jsonl", output.JSONL, output.Options{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			golden(t, tt.name+".golden", render(t, tt.mode, tt.opts, sampleCols, tt.rows))
		})
	}
}
