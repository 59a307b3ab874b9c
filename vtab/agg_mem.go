package vtab

import (
	"reflect"

	"github.com/tetsql/tetsql/internal/fold"
)

// groupBytes is the memory of one group's partial result.
var groupBytes = int64(reflect.TypeFor[fold.Stats]().Size())

// reserve sizes the buffers of a fold into ngroups groups from the exact
// axis selections, before any is allocated, and fails above the
// session's memory limit: one set of groups (a grouped fold's extra
// workers are sized against what is left, see foldStriped), the index
// table of each kept axis, the chunk list (agg_chunks.go) and the
// ungrouped fold's per-batch partials.
//
// A selection over more chunks than the index holds must need an absent
// chunk: that fails at once with ErrMissingChunk, so that a small file
// declaring a huge sparse grid never sizes a list of its grid.
func (c *aggCursor) reserve(ngroups int64, sel []axisSel) error {
	c.t.session.release(&c.held) // the previous Filter's buffers are dropped
	err := c.reserveAll(ngroups, sel)
	if err != nil {
		c.t.session.setErr(err) // the driver returns it whole (errors.Is)
		return err
	}
	c.held = c.mem.hold()
	return nil
}

func (c *aggCursor) reserveAll(ngroups int64, sel []axisSel) error {
	c.mem = c.t.session.budget(c.t.qualified)
	if err := c.mem.need("grouping", ngroups, "groups", groupBytes); err != nil {
		return err
	}
	indices := int64(0)
	for d, k := range c.keep {
		if k {
			indices += sel[d].n
		}
	}
	if err := c.mem.need("indexing the groups", indices, "axis indices", 8); err != nil {
		return err
	}
	spans, n := chunkSpans(sel, c.t.ds.ChunkShape)
	if n > int64(len(c.t.ds.Chunks())) {
		if err := c.firstMissing(spans); err != nil {
			return err
		}
	}
	if err := c.mem.need("the chunk list", n, "chunks", 8); err != nil {
		return err
	}
	if err := c.mem.need("the partial results", n/foldBatch+1, "batches of chunks", groupBytes); err != nil {
		return err
	}
	c.spans, c.nchunks = spans, n
	return nil
}
