package vtab

import (
	"fmt"
	"unsafe"

	"github.com/tetsql/tetsql/internal/fold"
	"github.com/tetsql/tetsql/tetcore"
)

// groupBytes is the memory of one group's partial result.
const groupBytes = int64(unsafe.Sizeof(fold.Stats{}))

// reserve sizes the buffers of a fold into ngroups groups from the plan,
// before any is allocated, and fails above the session's memory limit:
// one set of groups (a grouped fold's extra workers are sized against
// what is left, see foldStriped), the index table of each kept axis, the
// chunk list and the ungrouped fold's per-batch partials.
//
// A plan over more chunks than the index holds must name an absent
// chunk: that fails at once with ErrMissingChunk, so that a small file
// declaring a huge sparse grid never sizes a list of its grid.
func (c *aggCursor) reserve(ngroups int64) error {
	err := c.reserveAll(ngroups)
	if err != nil {
		c.t.session.setErr(err) // the driver returns it whole (errors.Is)
	}
	return err
}

func (c *aggCursor) reserveAll(ngroups int64) error {
	c.mem = c.t.session.budget(c.t.qualified)
	if err := c.mem.need("grouping", ngroups, "groups", groupBytes); err != nil {
		return err
	}
	indices := int64(0)
	for d, k := range c.keep {
		if k {
			lo, hi := c.plan.Interval(d)
			indices += max(hi-lo, 0)
		}
	}
	if err := c.mem.need("the group index tables", indices, "axis indices", 8); err != nil {
		return err
	}
	if c.plan.Empty() {
		return nil
	}
	n := c.plan.ChunkCount()
	if ds := c.t.ds; n > int64(len(ds.Chunks())) {
		if err := c.firstMissing(); err != nil {
			return err
		}
	}
	if err := c.mem.need("the chunk list", n, "chunks", 8); err != nil {
		return err
	}
	return c.mem.need("the partial results", n/foldBatch+1, "batches of chunks", groupBytes)
}

// firstMissing returns the missing-chunk error of the plan's first chunk
// absent from the index; it stops there, so it reads at most one chunk
// more than the index holds.
func (c *aggCursor) firstMissing() error {
	ds := c.t.ds
	it := c.plan.Iter()
	for it.Next() {
		ch := it.Chunk()
		if _, ok := ds.Chunk(ch.ID); !ok {
			return fmt.Errorf("tet: %s: dataset %q chunk %v: %w", c.t.qualified, ds.Name, ch.Coords, tetcore.ErrMissingChunk)
		}
	}
	return nil
}
