package scan

import (
	"fmt"

	"github.com/tetsql/tetsql/internal/fold"
)

// Pick feeds every selected element of spec (the selection, groups and
// chunks a Fold of the same spec folded) to p, the second pass of
// median, quantile, argmin and argmax. One goroutine does it, since the
// Picker's groups are shared; the chunks are read again (the cache or
// the mapping keeps a small selection's chunks at hand). Under value
// terms (spec.Terms) only the passing elements are fed, with their
// rowids, and the chunks the terms exclude are skipped as the fold
// skipped them. It adds its chunk counters to st, not its elements (the
// fold counted them) nor its skipped chunks (each is counted once).
func Pick(spec *FoldSpec, p *fold.Picker, st *ScanStats) error {
	in := spec.Reader.a.Info()
	items := chunkIDs(in, spec.Spans, spec.Chunks)
	spec.Session.LivePlan(int64(len(items)))
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
	var own ScanStats
	err := runWorkers(spec, 1, func(f *folder) error {
		f.pick, f.rowStride = p, rowStride
		for _, id := range items {
			if err := f.chunk(id); err != nil {
				return err
			}
		}
		return nil
	}, ev, &own)
	own.ChunksSkipped = 0
	st.Add(&own)
	if err != nil {
		return err
	}
	if !p.Complete() {
		return fmt.Errorf("tet: %s: a group holds fewer elements than its fold counted (the data changed between passes)", spec.Reader.table)
	}
	return nil
}
