package blosc

import "fmt"

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
			copy(out[op:op+n], in[ip:ip+n])
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

// copyMatch copies length bytes from out[op-back:] to out[op:] as a
// forward byte-by-byte copy would, so overlapping runs repeat. The caller
// has checked both ranges.
func copyMatch(out []byte, op, back, length int) {
	src := op - back
	if back >= length {
		copy(out[op:op+length], out[src:src+length])
		return
	}
	if back == 1 {
		b := out[src]
		for i := op; i < op+length; i++ {
			out[i] = b
		}
		return
	}
	// Overlapping: copy in chunks of back bytes; each chunk reads bytes
	// already written, which is exactly the byte-by-byte semantics.
	for length > 0 {
		n := min(back, length)
		copy(out[op:op+n], out[src:src+n])
		op += n
		src += n
		length -= n
	}
}
