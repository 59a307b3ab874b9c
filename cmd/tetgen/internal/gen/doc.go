// Package gen provides the logic behind cmd/tetgen: parsing of dataset,
// label and attribute specs, deterministic value patterns, a streaming
// parallel writer on top of tetcore.Writer, and the `demo` preset that
// produces testdata/demo.tet.
//
// Files are written with tetcore.Writer, which owns the format.
//
// Every element is a pure function of (seed, dataset name, global
// coordinates), so the output is identical for any chunk order, worker
// count or machine load: the same arguments always give the same bytes.
package gen
