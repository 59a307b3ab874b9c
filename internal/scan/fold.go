package scan

import (
	"errors"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/tetsql/tetsql/internal/fold"
)

// GroupBytes is the memory of one group's partial result.
const GroupBytes = int64(unsafe.Sizeof(fold.Stats{}))

// FoldBatch is how many chunks a worker of an ungrouped fold claims at a
// time; the fold keeps one partial result per batch.
const FoldBatch = 8

// FoldSpec is one aggregate fold: a selection of one array reduced into
// groups.
type FoldSpec struct {
	Reader  Reader
	Session *Session // the call's context, for cancellation (may be nil)
	// Sel is the exact selection per axis, Stride and Groups the group
	// numbering (fold.Strides).
	Sel    []AxisSel
	Stride []int64
	Groups int64
	// Spans and Chunks are the chunks holding selected elements
	// (ChunkSpans) and their number, which the caller has budgeted.
	Spans  [][]ChunkSpan
	Chunks int64
	// Free is the memory the caller's budget has left: a grouped fold
	// runs one extra worker per set of groups it allows.
	Free int64
	// Coarse, when set, holds per axis the block size k of a coarsened
	// group axis (by 'dim/k'; 0 or 1 for none), and Blocks the distinct
	// index/k of its selection, ascending: the group keys, whose
	// positions number its groups (see coarse.go).
	Coarse []int64
	Blocks [][]int64
	// Terms are value terms (exact: Lo == Hi) every folded element must
	// satisfy; chunks their statistics exclude are skipped unread (by
	// Pick too, which feeds the Picker the passing elements only).
	Terms []ValueTerm
}

// Fold folds every chunk holding selected elements on worker goroutines
// and returns the groups; it adds its counters (chunks, bytes, elements)
// to st.
func Fold(spec *FoldSpec, st *ScanStats) ([]fold.Stats, error) {
	items := chunkIDs(spec.Reader.a.Info(), spec.Spans, spec.Chunks)
	spec.Session.LivePlan(int64(len(items)))
	var ev *evictor
	if len(items) >= EvictFrom {
		ev = newEvictor(spec.Reader.a.src)
	}
	var out []fold.Stats
	var err error
	if spec.Groups == 1 {
		out, err = foldBatches(spec, items, ev, st)
	} else {
		out, err = foldStriped(spec, items, ev, st)
	}
	if err != nil {
		return nil, err
	}
	for g := range out {
		st.Elements += out[g].Count() + out[g].NullCount()
	}
	return out, nil
}

// foldBatches folds the items into one group. Workers claim batches of
// FoldBatch chunks as they go (a busy core holds up no one), and each
// batch's result has its own slot, merged in batch order at the end: the
// result does not depend on which worker folded what.
func foldBatches(spec *FoldSpec, items []int64, ev *evictor, st *ScanStats) ([]fold.Stats, error) {
	nb := (len(items) + FoldBatch - 1) / FoldBatch
	part := make([]fold.Stats, max(nb, 1))
	workers := max(min(runtime.GOMAXPROCS(0), nb), 1)
	var next atomic.Int64
	err := runWorkers(spec, workers, func(f *folder) error {
		for {
			b := int(next.Add(1) - 1)
			if b >= nb {
				return nil
			}
			f.out = part[b : b+1]
			for i := b * FoldBatch; i < min((b+1)*FoldBatch, len(items)); i++ {
				if err := f.chunk(items[i]); err != nil {
					return err
				}
			}
		}
	}, ev, st)
	if err != nil {
		return nil, err
	}
	for _, p := range part[1:] {
		part[0] = fold.Merge(part[0], p)
	}
	return part[:1], nil
}

// foldStriped folds the items into Groups groups: worker w takes items
// w, w+W, … into its own groups, merged in worker order at the end.
func foldStriped(spec *FoldSpec, items []int64, ev *evictor, st *ScanStats) ([]fold.Stats, error) {
	// Each worker beyond the first needs its own set of groups, which
	// the caller's budget did not count: run only as many as it allows.
	ngroups := spec.Groups
	workers := min(runtime.GOMAXPROCS(0), len(items), 1+int(min(spec.Free/max(GroupBytes*ngroups, 1), 1<<20)))
	workers = max(workers, 1)
	parts := make([][]fold.Stats, workers)
	var claimed atomic.Int64
	err := runWorkers(spec, workers, func(f *folder) error {
		w := int(claimed.Add(1) - 1)
		parts[w] = make([]fold.Stats, ngroups)
		f.out = parts[w]
		for i := w; i < len(items); i += workers {
			if err := f.chunk(items[i]); err != nil {
				return err
			}
		}
		return nil
	}, ev, st)
	if err != nil {
		return nil, err
	}
	out := parts[0]
	for _, p := range parts[1:] {
		for g := range out {
			out[g] = fold.Merge(out[g], p[g])
		}
	}
	return out, nil
}

// runWorkers runs body on workers goroutines, each with its own folder,
// adds their counters to st and returns the first error. A panic in a
// worker would end the process whatever the SQLite thread recovers, so
// each worker recovers its own and returns it as an error; once one
// fails, the others stop at their next chunk.
func runWorkers(spec *FoldSpec, workers int, body func(*folder) error, ev *evictor, st *ScanStats) error {
	errs := make([]error, workers)
	var mu sync.Mutex
	var wg sync.WaitGroup
	var stop atomic.Bool
	table, path := spec.Reader.table, spec.Reader.a.src.path
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// An in-place chunk is folded straight from the mapping: if
			// the file shrinks meanwhile, the read faults. Make that a
			// panic this goroutine recovers, not the end of the process.
			debug.SetPanicOnFault(true)
			f := folder{spec: spec, r: spec.Reader, ev: ev, stop: &stop}
			if len(spec.Terms) > 0 {
				f.vf.set(spec.Reader.a.Info().DType, spec.Terms)
			}
			defer func() {
				if p := recover(); p != nil {
					errs[w] = faultError(table, path, p)
					if errs[w] == nil {
						errs[w] = Internal(table, "fold worker", p)
					}
				}
				if errs[w] != nil {
					stop.Store(true)
				}
				mu.Lock()
				st.Add(&f.stats)
				mu.Unlock()
			}()
			errs[w] = body(&f)
		}()
	}
	wg.Wait()
	var first error
	for _, err := range errs {
		if err != nil && (first == nil || errors.Is(first, errStopped)) {
			first = err
		}
	}
	return first
}

// errStopped is what a worker returns when it stops because another one
// failed; the other's error is reported instead.
var errStopped = errors.New("tet: fold stopped")
