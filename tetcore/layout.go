package tetcore

import "github.com/tetsql/tetsql/array"

// Sizes and magic numbers of layout v1.
const (
	superblockSize  = 32
	indexHeaderSize = 32
	indexEntrySize  = 104
	footerTailSize  = 16
	// maxRank is layout v1's bound on ndim (1..8), which is the
	// project-wide array.MaxRank.
	maxRank = array.MaxRank

	magicSuperblock = "TETR"
	magicIndex      = "TIDX"
	magicFooter     = "THST"

	flagFooter = 1
)

// Codec is how a chunk's payload is stored.
type Codec uint32

// Chunk codecs.
const (
	CodecRaw  Codec = 0
	CodecZstd Codec = 1
)

// String is "raw" or "zstd".
func (c Codec) String() string {
	switch c {
	case CodecRaw:
		return "raw"
	case CodecZstd:
		return "zstd"
	}
	return "codec(?)"
}

func align8(n uint64) uint64 { return (n + 7) &^ 7 }

// mulOK returns a*b and whether it fits in a non-negative int64.
func mulOK(a, b int64) (int64, bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || p < 0 {
		return 0, false
	}
	return p, true
}

// addOK returns a+b and whether it did not overflow uint64.
func addOK(a, b uint64) (uint64, bool) {
	s := a + b
	return s, s >= a
}
