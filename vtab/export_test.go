package vtab

import "github.com/tetsql/tetsql/internal/scan"

// fakeDecl declares nothing: a table made without SQLite, for the
// cursor benchmark.
type fakeDecl struct{}

func (fakeDecl) Declare(string) error { return nil }

func fakeCtx() fakeDecl { return fakeDecl{} }

// PanicAt makes the callback or worker named where ("xFilter",
// "fold worker", …) panic until restore is called. Not for parallel tests.
func PanicAt(where string) (restore func()) { return scan.PanicAt(where) }

// ParseByItem is parseByItem, for the by-parser fuzz test.
var ParseByItem = parseByItem

// ManyKeepFiles is manyKeepFiles, for the bounded-open-files test.
const ManyKeepFiles = manyKeepFiles
