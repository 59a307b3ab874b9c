// Package array provides the format-neutral model of chunked N-dimensional
// arrays that every file format of tetsql implements, and that the engine
// (internal/scan) and the SQL tables (vtab) read through.
//
// A Format recognises its files by their first bytes and opens them as a
// Source: one file (or directory) holding Arrays. An Array is one dataset
// cut into a regular grid of chunks: Info describes its geometry and
// metadata, Chunk one chunk's index entry, and ReadChunk decodes one chunk
// into a caller's buffer, row-major and trimmed at the array's edges.
//
// What only some formats can do is an optional capability: a small extra
// interface found by type assertion, in the style of io.WriterTo (Pinner,
// Guarder, ChangeChecker, Evicter, Historian, Describer, Verifier).
//
// The package imports only the standard library. Its conformance test,
// array/arraytest, checks an implementation the same way for every format.
package array
