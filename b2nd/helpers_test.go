package b2nd

import (
	"errors"
	"fmt"
)

// errCompressed marks a chunk the test decoder cannot decode: the real
// codec lives in another package.
var errCompressed = errors.New("compressed chunk (test decoder handles only memcpyed and special chunks)")

// rawDecode is a test-only DecodeFunc for chunks that need no codec:
// memcpyed chunks and the zeros / run-of-value special chunks. It is what
// the frame-internal chunks (index, attributes) usually are.
func rawDecode(dst, src []byte) error {
	if len(src) < 16 {
		return fmt.Errorf("chunk of %d bytes", len(src))
	}
	flags := src[2]
	nbytes := int(le32(src[4:]))
	if nbytes != len(dst) {
		return fmt.Errorf("nbytes %d, dst %d", nbytes, len(dst))
	}
	hlen := 16
	if flags&5 == 5 {
		hlen = 32
	}
	if len(src) < hlen {
		return fmt.Errorf("chunk of %d bytes, header %d", len(src), hlen)
	}
	if hlen == 32 {
		switch (src[31] >> 4) & 7 {
		case 0:
		case 1, 4:
			clear(dst)
			return nil
		case 3:
			v := src[32:]
			if len(v) == 0 || len(dst)%len(v) != 0 {
				return fmt.Errorf("value of %d bytes", len(v))
			}
			for i := 0; i < len(dst); i += len(v) {
				copy(dst[i:], v)
			}
			return nil
		default:
			return fmt.Errorf("special kind %d", (src[31]>>4)&7)
		}
	}
	if flags&2 == 0 {
		return errCompressed
	}
	if len(src) != hlen+nbytes {
		return fmt.Errorf("memcpyed chunk of %d bytes for %d", len(src), nbytes)
	}
	copy(dst, src[hlen:])
	return nil
}
