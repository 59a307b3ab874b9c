// Package fold provides the numeric core of the <dataset>_agg virtual
// tables (docs/SQL.md, section "Aggregate tables"): typed
// reductions — count, null_count, sum, mean, min, max, population var and
// std — over whole decoded chunk payloads, optionally grouped by axes.
// It knows nothing of SQLite or the planner; it imports array for
// [array.DType] only.
//
// # Use
//
// [FoldBox] folds a chunk-local sub-box into one [Stats]; [FoldGroups]
// folds it into a caller-owned []Stats of groups addressed by per-axis
// group strides (see [Strides]), merging into what is already there, so
// chunks accumulate into the groups of a whole selection without
// allocating. Partial results combine with [Merge] in any order.
//
// Order statistics need the elements, not a partial result: a [Picker],
// made from the groups a fold gave, is fed the same sub-boxes in a
// second pass ([Picker.Box], or [Picker.Elems] for elements a filter
// kept, fed packed with their rowids); it gathers each group's non-NaN elements
// for [Picker.Quantile] (exact, linear interpolation, by selection:
// [Quantile], [Select]) and finds the rowid of the first element equal
// to each group's minimum and maximum ([Picker.ArgMin], [Picker.ArgMax]).
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
// Float sums are compensated: every vector lane (or the scalar loop)
// adds with an error-free TwoSum and accumulates the errors (Neumaier's
// method, as SQLite's sum() does), so sums are within a few ulps of the
// exact sum even under cancellation. Float blocks (up to 8192 elements)
// are folded in one pass that also sums the squared deviations d = x − k
// from a shift k close to the mean (the group's mean so far, or the mean
// of the block's first elements); M2 = Σd² − (Σd)²/n, with Σd taken from
// the compensated sum, loses only about log2(1 + (mean−k)²/var) bits, so
// data with a large offset (1e9 + noise) keeps full relative precision.
// Blocks, chunks and groups combine with the parallel formula of Chan et
// al., whose difference of means is formed from the compensated sums
// with error-free products. Integer blocks are exact in 64 or 128 bits.
//
// # Speed
//
// Contiguous runs are read in place on little-endian hosts (misaligned
// ones too on amd64 and arm64); strided, big-endian and f16 input, and
// misaligned input elsewhere, is copied through a small stack buffer. On
// amd64 with AVX2 and FMA the f32 and f64 block kernels are assembly
// (kernel_amd64.s): 8 or 4 elements per step, NaN lanes masked out and
// counted, no branch, and a prefetch one page ahead (the hardware
// prefetchers stop at page boundaries); with AVX-512 the f32 kernel takes
// 16 elements per step, twice the speed in cache; contiguous f16 runs
// are widened with F16C before the f32 kernel. Elsewhere, and with
// -tags purego, a portable loop does the same arithmetic. A block holding ±Inf (or
// whose sums overflow) is redone by a careful scalar loop.
package fold
