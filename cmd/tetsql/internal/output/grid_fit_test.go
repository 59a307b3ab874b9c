package output_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// TestFitWidth renders the sample at every terminal width from 20 to
// 120 and checks that each line fits (wherever the numbers allow), that
// no number is cut, and that the hidden-column count matches the "…"
// column.
func TestFitWidth(t *testing.T) {
	t.Parallel()
	// The widest numbers of the sample's first two columns: a line
	// holding them needs 4+20+3+22 = 49 columns at least.
	const numbersNeed = 49
	for _, mode := range []output.Mode{output.Box, output.Table, output.ColumnMode} {
		for width := 20; width <= 120; width++ {
			var buf bytes.Buffer
			w, err := output.New(mode, &buf, output.Options{FitWidth: width})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Header(sampleCols); err != nil {
				t.Fatal(err)
			}
			for _, r := range sampleRows {
				if err := w.Row(r); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			hidden := output.HiddenColumns(w)
			out := buf.String()
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			for _, line := range lines {
				if n := output.DisplayWidth(line); n > width && width >= numbersNeed {
					t.Errorf("%v width %d: line of %d columns: %q", mode, width, n, line)
				}
			}
			for _, num := range []int64{9223372036854775807, -9223372036854775808} {
				if hidden < len(sampleCols)-1 && !strings.Contains(out, strconv.FormatInt(num, 10)) {
					t.Errorf("%v width %d: %d cut or missing", mode, width, num)
				}
			}
			header := lines[0]
			if mode == output.Box || mode == output.Table {
				header = lines[1]
			}
			more := strings.HasSuffix(strings.TrimRight(header, " │|"), "…")
			if more != (hidden > 0) {
				t.Errorf("%v width %d: hidden %d but header %q", mode, width, hidden, header)
			}
			if width >= 105 && (hidden != 0 || strings.Contains(out, "…")) {
				t.Errorf("%v width %d: the sample fits unchanged, got\n%s", mode, width, out)
			}
		}
	}
}
