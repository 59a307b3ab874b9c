package blosc

// pipeline undoes a chunk's filters block by block, from slot 5 down to
// slot 0, with two scratch buffers of one block each.
type pipeline struct {
	h      *Header
	active bool // some filter needs undoing
	a, b   []byte
	delta  int // XOR unit of the delta filter
}

// newPipeline prepares the scratch buffers when any slot holds a filter
// that changes bytes (trunc_prec has nothing to undo).
func newPipeline(h *Header, blocksize int) *pipeline {
	p := &pipeline{h: h, delta: deltaUnit(h.TypeSize)}
	for _, f := range h.Filters {
		if f != filterNone && f != filterTruncPrec {
			p.active = true
		}
	}
	if p.active {
		p.a = make([]byte, blocksize)
		p.b = make([]byte, blocksize)
	}
	return p
}

// undo restores one block: in holds the decoded streams (p.a's storage),
// out receives the result. ref is the restored block 0 for the delta filter
// of later blocks; first says this is block 0.
func (p *pipeline) undo(out, in, ref []byte, first bool) {
	n := len(in)
	cur, spare := in, p.b[:n]
	for slot := 5; slot >= 0; slot-- {
		f := p.h.Filters[slot]
		meta := int(p.h.FiltersMeta[slot])
		switch f {
		case filterShuffle:
			es := meta
			if es == 0 {
				es = p.h.TypeSize
			}
			unshuffle(spare, cur, es)
			cur, spare = spare, cur
		case filterBitshuffle:
			unbitshuffle(spare, cur, p.h.TypeSize, p.h.Version)
			cur, spare = spare, cur
		case filterDelta:
			if first {
				undelta(cur, nil, p.delta)
			} else {
				undelta(cur, ref, p.delta)
			}
		case filterBytedelta:
			es := meta
			if es == 0 {
				es = p.h.TypeSize
			}
			unbytedelta(cur, es)
		}
	}
	copy(out, cur)
}
