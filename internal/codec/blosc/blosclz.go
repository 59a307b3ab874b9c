package blosc

import (
	"encoding/binary"
	"fmt"
)

// decodeBloscLZ decodes one BloscLZ stream from in into out and returns the
// number of bytes written. It never reads or writes out of bounds: every
// length read from in is checked before use, and every instruction
// consumes at least one input byte, so it always terminates.
//
// The stream is a sequence of instructions. A control byte below 32 is a
// literal run of ctrl+1 bytes; otherwise it is a match whose length field
// is ctrl>>5 (7 means extension bytes follow, each 255 meaning more) and
// whose distance is built from ctrl&31 and the next byte (with a two-byte
// far distance when both are all ones). The first control byte only counts
// its low 5 bits, and a match header that ends the input is not executed.
func decodeBloscLZ(in, out []byte) (int, error) {
	if len(in) == 0 {
		return 0, fmt.Errorf("%w: blosclz: empty stream", ErrCorrupt)
	}
	ip, op := 1, 0
	ctrl := int(in[0] & 31)
	for {
		if ctrl < 32 {
			n := ctrl + 1
			if n > len(in)-ip {
				return op, fmt.Errorf("%w: blosclz: literal run past the input", ErrCorrupt)
			}
			if n > len(out)-op {
				return op, fmt.Errorf("%w: blosclz: literal run past the output", ErrCorrupt)
			}
			if ip+32 <= len(in) && op+32 <= len(out) {
				// A run is at most 32 bytes: copy 32 in four words
				// rather than call memmove; the bytes past the run
				// are overwritten later (the stream must fill out).
				copy32(out[op:op+32], in[ip:ip+32])
			} else {
				copy(out[op:op+n], in[ip:ip+n])
			}
			ip += n
			op += n
			if ip == len(in) {
				return op, nil
			}
		} else {
			length := (ctrl >> 5) - 1
			if length == 6 {
				for {
					if ip >= len(in)-1 {
						return op, fmt.Errorf("%w: blosclz: match length past the input", ErrCorrupt)
					}
					b := int(in[ip])
					ip++
					length += b
					if b != 255 {
						break
					}
				}
			} else if ip >= len(in)-1 {
				return op, fmt.Errorf("%w: blosclz: match distance past the input", ErrCorrupt)
			}
			d := int(in[ip])
			ip++
			length += 3
			back := (ctrl&31)<<8 + d + 1
			if d == 255 && ctrl&31 == 31 {
				if ip+1 >= len(in) {
					return op, fmt.Errorf("%w: blosclz: far distance past the input", ErrCorrupt)
				}
				back = (int(in[ip])<<8 | int(in[ip+1])) + 8192
				ip += 2
			}
			if length > len(out)-op {
				return op, fmt.Errorf("%w: blosclz: match past the output", ErrCorrupt)
			}
			if back > op {
				return op, fmt.Errorf("%w: blosclz: match distance %d before the output start", ErrCorrupt, back)
			}
			if ip == len(in) {
				// A trailing match header is not executed.
				return op, nil
			}
			copyMatch(out, op, back, length)
			op += length
		}
		ctrl = int(in[ip])
		ip++
	}
}

// copy32 copies 32 bytes in four words.
func copy32(dst, src []byte) {
	dst, src = dst[:32], src[:32]
	le := binary.LittleEndian
	le.PutUint64(dst[0:], le.Uint64(src[0:]))
	le.PutUint64(dst[8:], le.Uint64(src[8:]))
	le.PutUint64(dst[16:], le.Uint64(src[16:]))
	le.PutUint64(dst[24:], le.Uint64(src[24:]))
}

// copyMatch copies length bytes from out[op-back:] to out[op:] as a
// forward byte-by-byte copy would, so overlapping runs repeat. The caller
// has checked both ranges. Bytes of out past op+length may be overwritten
// (they are not decoded yet).
func copyMatch(out []byte, op, back, length int) {
	src := op - back
	end := op + length
	le := binary.LittleEndian
	switch {
	case back >= 8 && end+8 <= len(out):
		// Each word read lies before the word written, so word copies
		// (rounded up past end) repeat overlapping runs correctly.
		for ; op < end; op, src = op+8, src+8 {
			le.PutUint64(out[op:], le.Uint64(out[src:]))
		}
	case back == 1 && end+8 <= len(out):
		v := uint64(out[src]) * lo8
		for ; op < end; op += 8 {
			le.PutUint64(out[op:], v)
		}
	case back >= length:
		copy(out[op:end], out[src:end-back])
	default:
		// Overlapping: the bytes from src repeat with period back, so
		// each copy may take everything from src up to op, doubling.
		for op < end {
			n := min(op-src, end-op)
			copy(out[op:op+n], out[src:src+n])
			op += n
		}
	}
}
