// Package scan is tetsql's engine: everything between the SQL tables
// (package vtab) and the file formats (package array and its
// implementations) that is neither SQL nor a format.
//
// A [Registry], owned by the driver, opens each file once through the
// format list it is given (the format is chosen by the file's first
// bytes, never by its name) and shares it between tables and
// connections, with the per-file state: the decoded-chunk cache and the
// statistics of chunks (min, max, counts: computed by folds and by
// value-filtered scans on first need, or read from the format's zone
// maps), by which value terms skip chunks unread.
//
// [Reader] is the one way a chunk is read, by cells scans, their
// read-ahead workers and aggregate folds alike: the table's chunk size
// limit, then the cache, then [array.Array.ReadChunk], with page
// eviction and the scan's counters. [CellScan] walks the selected
// positions of a plan for a cells table; [Fold] reduces a selection for
// an aggregate table on worker goroutines (by coarsened axes too:
// FoldSpec.Coarse), and [Pick] feeds the same selection to a
// fold.Picker for median, quantile, argmin and argmax. Both evaluate
// value terms ([ValueTerm]) exactly as SQLite compares the cells
// table's values. A [Session] is one connection's engine state: its
// settings, the statistics of its finished scans, the context of the
// call in progress and its memory limit.
//
// The package imports array, planner and internal/fold, never a format
// package: the driver hands the formats to [NewRegistry].
package scan
