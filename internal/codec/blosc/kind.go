package blosc

import (
	"slices"
	"strconv"
)

// Kind names how the chunk is stored, for listings and statistics: the
// special kinds "zeros", "nan", "uninit" and "value", "memcpy" for a
// chunk stored verbatim, else the codec of its streams ("blosclz", "lz4",
// "zlib", "zstd"; a plugin id this reader does not know is "codec N").
func (h Header) Kind() string {
	switch h.Special {
	case SpecialZeros:
		return "zeros"
	case SpecialNaN:
		return "nan"
	case SpecialUninit:
		return "uninit"
	case SpecialValue:
		return "value"
	}
	if h.Memcpyed {
		return "memcpy"
	}
	c, err := resolveCodec(&h)
	if err != nil {
		if h.Codec == codecUser {
			return "codec " + strconv.Itoa(int(h.UDCodec))
		}
		return "codec format " + strconv.Itoa(int(h.Codec))
	}
	return codecName(c)
}

// NeedsBlock0 reports whether decoding a block other than the first
// alone (DecodeBlock) needs the restored block 0: the delta filter
// encodes every block against it.
func (h Header) NeedsBlock0() bool {
	return h.Special == SpecialNone && !h.Memcpyed && slices.Contains(h.Filters[:], filterDelta)
}
