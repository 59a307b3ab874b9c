package vtab

import (
	"modernc.org/sqlite/vtab"

	"github.com/tetsql/tetsql/internal/scan"
)

func fakeCtx() vtab.Context { return vtab.NewContext(func(string) error { return nil }) }

// LiveObjects and ConnCount expose the direct binding's accounting.
var LiveObjects, ConnCount = liveObjects, connCount

// PanicAt makes the callback or worker named where ("xFilter",
// "fold worker", …) panic until restore is called. Not for parallel tests.
func PanicAt(where string) (restore func()) { return scan.PanicAt(where) }
