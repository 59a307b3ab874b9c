package vtab

import "github.com/tetsql/tetsql/internal/scan"

// reserve sizes the buffers of a fold into ngroups groups from the exact
// axis selections, before any is allocated, and fails above the
// session's memory limit: one set of groups (a grouped fold's extra
// workers are sized against what is left, see scan.Fold), the index
// table of each kept axis, the chunk list (scan.ChunkSpans) and the
// ungrouped fold's per-batch partials.
//
// A selection over a chunk the file does not store fails at once with
// ErrMissingChunk (scan.Reader.FirstMissing stops at the first absent
// chunk), so that a small file declaring a huge sparse grid never sizes
// a list of its grid.
func (c *aggCursor) reserve(ngroups int64, sel []scan.AxisSel) error {
	s := c.t.session.engine()
	s.Release(&c.held) // the previous Filter's buffers are dropped
	err := c.reserveAll(ngroups, sel)
	if err != nil {
		s.SetErr(err) // the driver returns it whole (errors.Is)
		return err
	}
	c.held = c.mem.Hold()
	return nil
}

func (c *aggCursor) reserveAll(ngroups int64, sel []scan.AxisSel) error {
	c.mem = c.t.session.engine().Budget(c.t.qualified)
	if err := c.mem.Need("grouping", ngroups, "groups", scan.GroupBytes); err != nil {
		return err
	}
	indices := int64(0)
	for d, k := range c.keep {
		if k {
			indices += sel[d].N
		}
	}
	if err := c.mem.Need("indexing the groups", indices, "axis indices", 8); err != nil {
		return err
	}
	spans, n := scan.ChunkSpans(sel, c.t.info.ChunkShape)
	if err := c.t.reader.FirstMissing(spans); err != nil {
		return err
	}
	if err := c.mem.Need("the chunk list", n, "chunks", 8); err != nil {
		return err
	}
	if err := c.mem.Need("the partial results", n/scan.FoldBatch+1, "batches of chunks", scan.GroupBytes); err != nil {
		return err
	}
	c.spans, c.nchunks = spans, n
	return nil
}
