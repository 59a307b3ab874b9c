package vtab

// fakeDecl declares nothing: a table made without SQLite, for the
// cursor benchmark.
type fakeDecl struct{}

func (fakeDecl) Declare(string) error { return nil }

func fakeCtx() fakeDecl { return fakeDecl{} }

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
