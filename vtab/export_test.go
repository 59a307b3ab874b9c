package vtab

import "modernc.org/sqlite/vtab"

func fakeCtx() vtab.Context { return vtab.NewContext(func(string) error { return nil }) }

// LiveObjects and ConnCount expose the direct binding's accounting.
var LiveObjects, ConnCount = liveObjects, connCount

// SetEvictWindow sets the bytes large folds keep mapped and the least
// they evict at once, until restore is called. Not for parallel tests.
func SetEvictWindow(window, batch uint64) (restore func()) {
	w, b := evictWindow, evictBatch
	evictWindow, evictBatch = window, batch
	return func() { evictWindow, evictBatch = w, b }
}

// PanicAt makes the callback or worker named where ("xFilter",
// "fold worker", …) panic until restore is called. Not for parallel tests.
func PanicAt(where string) (restore func()) {
	panicAt.Store(&where)
	return func() { panicAt.Store(nil) }
}
