package blosc

import "sync"

// zstdSlack is the spare capacity given past a stream's end in the
// decoder's scratch buffer: with 16 bytes of room the zstd decoder may
// copy in 16-byte steps instead of its slower bounds-exact copies.
const zstdSlack = 16

// pipeline undoes a chunk's filters block by block, from slot 5 down to
// slot 0. Filters that move bytes (shuffle, bitshuffle) go from one buffer
// to another, the last of them straight into the caller's block; the
// others (delta, bytedelta) work in place. So a chunk without a moving
// filter is decoded straight into the output and none is copied twice.
type pipeline struct {
	h      *Header
	active bool // some filter needs undoing
	moves  int  // filters that move bytes to another buffer
	bufs   []*[]byte
	a, b   []byte // ping-pong buffers of one block each (when moves > 0)
	t      []byte // bitshuffle's scratch (when a bitshuffle has es > 1)
	delta  int    // XOR unit of the delta filter
}

// scratchPool recycles block buffers across chunks: a chunk is often
// decoded in a loop, and its blocks are hundreds of kilobytes.
var scratchPool sync.Pool

// getScratch returns a buffer of n bytes (and zstdSlack more capacity).
func getScratch(n int) *[]byte {
	if p, ok := scratchPool.Get().(*[]byte); ok && cap(*p) >= n+zstdSlack {
		*p = (*p)[: n : n+zstdSlack]
		return p
	}
	b := make([]byte, n, n+zstdSlack)
	return &b
}

// newPipeline prepares the scratch buffers the chunk's filters need
// (trunc_prec has nothing to undo).
func newPipeline(h *Header, blocksize int) *pipeline {
	p := &pipeline{h: h, delta: deltaUnit(h.TypeSize)}
	bitshuffle := false
	for _, f := range h.Filters {
		switch f {
		case filterShuffle:
			p.moves++
		case filterBitshuffle:
			p.moves++
			bitshuffle = bitshuffle || h.TypeSize > 1
		case filterDelta, filterBytedelta:
		default:
			continue
		}
		p.active = true
	}
	if p.moves > 0 {
		p.a = p.get(blocksize)
		if p.moves > 1 {
			p.b = p.get(blocksize)
		}
	}
	if bitshuffle {
		p.t = p.get(blocksize)
	}
	return p
}

// get takes a scratch buffer from the pool, to be returned by release.
func (p *pipeline) get(n int) []byte {
	b := getScratch(n)
	p.bufs = append(p.bufs, b)
	return *b
}

// release returns the scratch buffers to the pool.
func (p *pipeline) release() {
	for _, b := range p.bufs {
		scratchPool.Put(b)
	}
	p.bufs, p.a, p.b, p.t = nil, nil, nil, nil
}

// target is where block streams of n bytes are decoded: the block out
// itself when no filter moves bytes, else the first scratch buffer (with
// its slack as spare capacity).
func (p *pipeline) target(out []byte, n int) []byte {
	if p.moves == 0 {
		return out
	}
	return p.a[: n : n+zstdSlack]
}

// undo restores one block: in holds the decoded streams (from target), out
// receives the result. ref is the restored block 0 for the delta filter of
// later blocks; first says this is block 0.
func (p *pipeline) undo(out, in, ref []byte, first bool) {
	n := len(in)
	cur := in
	moves := p.moves
	for slot := 5; slot >= 0; slot-- {
		f := p.h.Filters[slot]
		meta := int(p.h.FiltersMeta[slot])
		var next []byte
		if f == filterShuffle || f == filterBitshuffle {
			moves--
			switch {
			case moves == 0:
				next = out
			case &cur[0] == &p.a[0]:
				next = p.b[:n]
			default:
				next = p.a[:n]
			}
		}
		switch f {
		case filterShuffle:
			es := meta
			if es == 0 {
				es = p.h.TypeSize
			}
			unshuffle(next, cur, es)
			cur = next
		case filterBitshuffle:
			unbitshuffle(next, cur, p.h.TypeSize, p.h.Version, p.t)
			cur = next
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
}
