package scan

import (
	"fmt"

	"github.com/tetsql/tetsql/internal/fold"
)

// Pick feeds every selected element of spec (the selection, groups and
// chunks a Fold of the same spec folded) to p, the second pass of
// median, quantile, argmin and argmax. One goroutine does it, since the
// Picker's groups are shared; the chunks are read again (the cache or
// the mapping keeps a small selection's chunks at hand). It adds its
// chunk counters to st, not its elements (the fold counted them).
func Pick(spec *FoldSpec, p *fold.Picker, st *ScanStats) error {
	in := spec.Reader.a.Info()
	items := chunkIDs(in, spec.Spans, spec.Chunks)
	rowStride := make([]int64, in.Rank())
	n := int64(1)
	for d := in.Rank() - 1; d >= 0; d-- {
		rowStride[d] = n
		n *= in.Shape[d]
	}
	var ev *evictor
	if len(items) >= EvictFrom {
		ev = newEvictor(spec.Reader.a.src)
	}
	err := runWorkers(spec, 1, func(f *folder) error {
		f.pick, f.rowStride = p, rowStride
		for _, id := range items {
			if err := f.chunk(id); err != nil {
				return err
			}
		}
		return nil
	}, ev, st)
	if err != nil {
		return err
	}
	if !p.Complete() {
		return fmt.Errorf("tet: %s: a group holds fewer elements than its fold counted (the data changed between passes)", spec.Reader.table)
	}
	return nil
}
