package vtab

import (
	"context"
	"errors"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/scan"
)

// TestFormatTable_interrupted: listing a format table whose rows never
// end stops once the statement is cancelled, within interruptEvery rows,
// with the context's error; before the cancel it goes on.
func TestFormatTable_interrupted(t *testing.T) {
	sess := scan.NewSession(nil)
	var cancel context.CancelFunc // the current statement's
	yielded := 0
	endless := array.Table{Name: "endless", Columns: []array.Column{{Name: "i", Type: "INTEGER"}},
		Rows: func(yield func([]any) bool) error {
			for i := int64(0); ; i++ {
				yielded++
				if i == 5000 {
					cancel()
				}
				if !yield([]any{i}) {
					return nil
				}
			}
		}}
	for _, countOnly := range []bool{true, false} {
		yielded = 0
		var ctx context.Context
		ctx, cancel = context.WithCancel(context.Background())
		sess.Enter(scan.NewCall(ctx))
		emit := &rowSink{countOnly: countOnly, sess: sess}
		tableKind(endless, "/f").rows(nil, nil, emit)
		if !errors.Is(emit.err, context.Canceled) || yielded <= 5000 || yielded > 5001+interruptEvery {
			t.Errorf("countOnly=%v: %v after %d rows, want context.Canceled within %d rows of the cancel at 5000",
				countOnly, emit.err, yielded, interruptEvery)
		}
		if !countOnly && (len(emit.rows) != yielded-1 || emit.rows[4999][0] != int64(4999)) {
			t.Errorf("%d rows kept of %d listed", len(emit.rows), yielded)
		}
		cancel()
	}
}
