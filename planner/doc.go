// Package planner provides the pushdown planner of tetsql: it turns the
// geometry of one chunked N-dimensional dataset plus the constraints of a
// query into a selected box of element indices, an optional exact rowid
// filter, the set of chunks to visit and row estimates.
//
// It is a pure leaf package: it imports only the standard library and
// package array (itself a standard-library-only leaf, for the one MaxRank
// of the project), never SQLite or a format package. The vtab layer
// translates SQLite's IndexInfo and Filter arguments into [Constraint]
// values. docs/SQL.md ("What the planner consumes") says what users see
// of it.
//
// # Conventions
//
//   - Every interval is half-open, [lo, hi): the selected box along axis d
//     is lo ≤ i < hi (see [Plan.Interval]); chunk-grid ranges, rowid ranges
//     and the sub-box of a chunk ([Chunk].Lo, [Chunk].Hi) follow the same rule.
//   - A rowid is the global row-major (last axis fastest) index of an element;
//     a chunk id is the row-major index of the chunk in the chunk grid.
//   - Values are what SQLite hands to xFilter: int64, float64, string,
//     []byte or nil. Comparisons of an integer index with a float are exact
//     (time < 2.5 means time ≤ 2; time = 2.5 matches nothing); NULL and NaN
//     on the right-hand side match nothing; bounds are clamped with
//     saturating, overflow-checked arithmetic.
//   - A constraint is "honoured" when the plan's selection (the box, plus the
//     rowid filter when [Plan.RowIDFilter] reports one) is exactly the set of
//     elements satisfying it. A constraint that is not honoured never
//     removes a matching element: the caller must leave it for SQLite.
//
// # Typical use
//
// BestIndex, which sees no values, calls [Geometry.Usable] per constraint
// and [Geometry.Estimate] for the rows of a candidate plan. Filter builds a
// [Plan] with [Plan.Reset] (reusable, allocation-free once warm), checks
// [Plan.Honoured], and walks the chunks with an [Iter].
//
// # Estimates
//
// [Plan.EstimatedRows] is the number of elements in the chunks that survive
// planning (whole, edge-trimmed chunks), computed in closed form without
// visiting them; [Plan.SelectedRows] is the exact number of selected
// elements, rowid filter included. [Geometry.Estimate] gives BestIndex the
// same quantities from operators alone, by documented heuristics.
//
// # Labels
//
// This section is about TEXT label axes; numeric ones follow below.
// Label equality is exact when the label is unique on its axis. When a label
// occurs more than once, equality narrows the box to the span between its
// first and last occurrence and is reported not honoured (SQLite re-checks);
// [Geometry.Usable] therefore reports equality on an axis with duplicate
// labels as pruning but not exact. Label ranges are honoured only when the
// axis's labels are strictly ascending in byte order; otherwise they are
// ignored and reported not honoured. Only string values are honoured against
// labels: a number is left to SQLite's affinity rules, and a []byte (BLOB)
// is never equal to TEXT in SQLite, so it is left to SQLite too.
//
// # Numeric labels
//
// An axis whose every label reads as a number ([ParseLabelNumber]) has a
// numeric label column ([Geometry.LabelType]): INTEGER, or REAL when some
// label is not an integer. Its constraints take int64, float64 or NULL
// values (the caller gives TEXT arguments SQLite's numeric affinity first;
// any other value is not honoured and restricts nothing) and compare as
// SQLite compares numbers, INTEGER with REAL exactly. When the labels are
// ordered, non-decreasing or non-increasing (latitudes usually descend),
// every operator resolves exactly to one index range by binary search.
// On an unordered axis equality is exact when the number occurs once, and
// a range narrows the box to the hull of its matches, found by a scan of
// the labels, honoured only when every label of the hull matches.
package planner
