// Package fold provides the numeric core of the <dataset>_agg virtual
// tables (shared/spec/sql-surface.md, section "Aggregates"): typed
// reductions — count, null_count, sum, mean, min, max, population var and
// std — over whole decoded chunk payloads, optionally grouped by axes.
// It knows nothing of SQLite or the planner; it imports tetcore for
// [tetcore.DType] only.
//
// # Use
//
// [FoldBox] folds a chunk-local sub-box into one [Stats]; [FoldGroups]
// folds it into a caller-owned []Stats of groups addressed by per-axis
// group strides (see [Strides]), merging into what is already there, so
// chunks accumulate into the groups of a whole selection without
// allocating. Partial results combine with [Merge] in any order.
//
// # Semantics (those of SQLite, with NaN as NULL)
//
//   - NaN elements are counted by [Stats.NullCount] and skipped by every
//     other result, so sum/mean/min/max/count agree with SQLite's
//     sum/avg/min/max/count over the cells table, where NaN reads as NULL.
//   - ±Inf elements take part: min and max may be ±Inf; the sum follows
//     IEEE 754 (+Inf, −Inf, or NaN when both signs occur) and, like
//     SQLite, reports NULL (ok=false) when it is NaN; mean is sum/count
//     with the same rule; var and std are NULL whenever the mean is not
//     finite.
//   - Empty input (Count 0): every result is NULL (ok=false), Count and
//     NullCount are 0 and the number of NaNs.
//   - Integer dtypes are summed exactly in 128 bits ([Int128]): report
//     [Stats.IntSum] as INTEGER when it fits in an int64 and [Stats.Sum]
//     as REAL otherwise (SQLite's sum() raises "integer overflow" there);
//     [Stats.IntMin] and [Stats.IntMax] are exact.
//
// # Precision
//
// Float sums are compensated (error-free transformations, equivalent to
// Kahan–Babuška–Neumaier as in SQLite's sum()), within a few ulps of the
// exact sum. The variance is two-pass within blocks of at most 2048
// elements (in cache) and combined across blocks, chunks and groups with
// the parallel formula of Chan et al., whose difference of means is formed
// from the compensated sums with error-free products, so data with a
// large offset (1e9 + noise) keeps full relative precision.
//
// # Speed
//
// Contiguous, aligned runs are read in place on little-endian hosts;
// unaligned, strided, big-endian and f16 input is copied through a small
// stack buffer. The float kernels use four independent lanes with no
// data-dependent branch but min/max; a block containing NaN or ±Inf is
// redone by a careful scalar loop.
package fold
