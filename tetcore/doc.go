// Package tetcore provides reading, validation and writing of .tet files,
// the single-file container of chunked N-dimensional arrays described in
// the tet format specification, layout v1 (summarised in docs/SQL.md and
// docs/ARCHITECTURE.md; the specification is published with the format).
//
// A file is opened once with [Open] (read-only, memory-mapped) or parsed
// from bytes with [Parse]. Every structural rule of the format is checked
// before anything is handed out: a malformed file yields an error wrapping
// one of the exported sentinels ([ErrBadMagic], [ErrCorrupt], …) with
// context naming the field, dataset and chunk involved. A damaged footer
// does not prevent opening; [File.FooterStatus] reports it.
//
// Chunks are read with [File.ReadChunk]: raw chunks are zero-copy views of
// the mapping, zstd chunks decode into a caller-owned buffer. Slices handed
// out are valid only until the file is closed; long-lived readers pin the
// mapping with [File.Acquire].
//
// [Format] is the format as the engine sees it, an array.Format: an
// opened [File] is an array.Source whose Arrays are its datasets, with
// every optional capability of package array (pinning, guarded reads,
// change checks, page eviction, history, description, verification).
// The sentinels other than [ErrBadMagic] are array's own values.
//
// [Writer] writes files in the reference layout, streaming one chunk at a
// time, into a temporary file renamed into place on success.
package tetcore
