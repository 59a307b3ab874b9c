package repl

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// The _agg hint: after an aggregate statement that read a cells table
// row by row over many chunks, when the table has an _agg companion that
// folds whole chunks (and the driver did not already route the statement
// there), the shell says so once per companion and session.

// Thresholds of the hint: a cells scan that decoded at least
// hintChunks chunks, or ran at least hintTime.
const (
	hintChunks = 64
	hintTime   = time.Second
)

// hintColumns are the companion's columns the hint names, in this
// order, when it has them.
var hintColumns = []string{"count", "sum", "min", "max", "mean"}

// aggHint prints the hint after statement q, which recorded scans,
// when it applies: stderr is a terminal, no script runs, and some cells
// scan of q read enough chunks of a table whose companion exists and was
// not named before, and q aggregates.
func (s *Shell) aggHint(q string, scans []tetsql.ScanStats) {
	if !s.opt.StderrTerminal || s.live.scripts > 0 {
		return
	}
	minChunks, minTime := int64(hintChunks), time.Duration(hintTime)
	if s.live.hintChunks != 0 {
		minChunks = s.live.hintChunks
	}
	if s.live.hintTime != 0 {
		minTime = s.live.hintTime
	}
	ctx := context.Background()
	aggregates := -1 // unknown until asked
	for _, st := range scans {
		// A cells scan emits rows; an _agg scan folds elements.
		if st.Elements > 0 || st.ChunksDecoded == 0 || (st.ChunksDecoded < minChunks && st.Elapsed < minTime) {
			continue
		}
		schema, table, ok := strings.Cut(st.Table, ".")
		companion := st.Table + "_agg"
		if !ok || s.live.hinted[companion] {
			continue
		}
		if aggregates < 0 {
			aggregates = 0
			if s.aggregates(ctx, q) {
				aggregates = 1
			}
		}
		if aggregates == 0 {
			return
		}
		cols := s.companionColumns(ctx, schema, table+"_agg")
		if len(cols) == 0 {
			continue
		}
		if s.live.hinted == nil {
			s.live.hinted = map[string]bool{}
		}
		s.live.hinted[companion] = true
		fmt.Fprintf(s.opt.Stderr, "hint: %s chunks of %s were read row by row; %s folds whole chunks: SELECT %s FROM %s WHERE … (%s('DIM') groups by a dim)\n",
			output.AppendGrouped(nil, st.ChunksDecoded), st.Table, companion, strings.Join(cols, ", "), companion, companion)
	}
}

// foldable are the aggregate functions an _agg companion's columns
// answer (count, sum, min, max, mean).
var foldable = map[string]bool{"count": true, "sum": true, "total": true, "min": true, "max": true, "avg": true}

// distinctArg finds an aggregate over DISTINCT values, grouped a GROUP
// BY. In a query the driver did not route, no companion column answers
// either (the driver routes a grouping by dims onto t_agg('time')).
var (
	distinctArg = regexp.MustCompile(`(?i)\(\s*distinct\b`)
	grouped     = regexp.MustCompile(`(?i)\bgroup\s+by\b`)
)

// aggregates reports whether q's program steps aggregates (EXPLAIN
// shows AggStep), each one a companion could answer — count, sum,
// total, min, max or avg, none over DISTINCT values, without GROUP BY:
// q is prepared again, not run.
func (s *Shell) aggregates(ctx context.Context, q string) bool {
	if distinctArg.MatchString(q) || grouped.MatchString(q) {
		return false
	}
	found, other := false, false
	err := s.queryRows(ctx, "EXPLAIN "+q, func(vals []any) error {
		if len(vals) > 5 && strings.HasPrefix(fmt.Sprint(text(vals[1])), "AggStep") {
			found = true
			name, _, _ := strings.Cut(fmt.Sprint(text(vals[5])), "(") // P4: "max(1)"
			other = other || !foldable[strings.ToLower(name)]
		}
		return nil
	})
	return err == nil && found && !other
}

// companionColumns returns the hint's columns that table (an _agg
// companion) in schema has, none when it does not exist.
func (s *Shell) companionColumns(ctx context.Context, schema, table string) []string {
	has := map[string]bool{}
	err := s.queryRows(ctx, "SELECT name FROM pragma_table_info(?, ?)", func(vals []any) error {
		has[fmt.Sprint(text(vals[0]))] = true
		return nil
	}, table, schema)
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range hintColumns {
		if has[c] {
			out = append(out, c)
		}
	}
	return out
}

// text is v as a string when SQLite returned it as bytes.
func text(v any) any {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return v
}
