package blosc

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// refBloscLZ is a deliberately plain transcription of the stream format
// (byte-by-byte copies, a growing slice) used as the oracle for
// decodeBloscLZ in tests and fuzzing. It returns ok false where the
// format says "error".
func refBloscLZ(in []byte, limit int) ([]byte, bool) {
	if len(in) == 0 {
		return nil, false
	}
	var out []byte
	ip := 1
	ctrl := int(in[0] & 31)
	for {
		if ctrl < 32 {
			n := ctrl + 1
			if ip+n > len(in) || len(out)+n > limit {
				return out, false
			}
			out = append(out, in[ip:ip+n]...)
			ip += n
			if ip == len(in) {
				return out, true
			}
		} else {
			length := (ctrl >> 5) - 1
			if ip >= len(in)-1 {
				return out, false
			}
			if length == 6 {
				for {
					if ip >= len(in)-1 {
						return out, false
					}
					b := int(in[ip])
					ip++
					length += b
					if b != 255 {
						break
					}
				}
			}
			d := int(in[ip])
			ip++
			length += 3
			back := (ctrl&31)<<8 + d + 1
			if d == 255 && ctrl&31 == 31 {
				if ip+1 >= len(in) {
					return out, false
				}
				back = (int(in[ip])<<8 | int(in[ip+1])) + 8192
				ip += 2
			}
			if len(out)+length > limit || back > len(out) {
				return out, false
			}
			if ip == len(in) {
				return out, true
			}
			for i := 0; i < length; i++ {
				out = append(out, out[len(out)-back])
			}
		}
		ctrl = int(in[ip])
		ip++
	}
}

func TestBloscLZStreams(t *testing.T) {
	far := []byte{}
	var farWant []byte
	for i := 0; i < 257; i++ { // 257 literal runs of 32 bytes: 8224 bytes
		far = append(far, 31)
		for k := 0; k < 32; k++ {
			b := byte(i*7 + k)
			far = append(far, b)
			farWant = append(farWant, b)
		}
	}
	far = append(far, 0x3F, 0xFF, 0x00, 0x00, 0x00, 'z') // back 8192, length 3
	farWant = append(farWant, farWant[8224-8192:8224-8192+3]...)
	farWant = append(farWant, 'z')
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"literal", []byte{0x02, 'a', 'b', 'c'}, "abc"},
		{"first control high bits ignored", []byte{0xE2, 'a', 'b', 'c'}, "abc"},
		{"run of one byte", []byte{0x00, 'a', 0x20, 0x00, 0x00, 'b'}, "aaaab"},
		{"overlapping period 2", []byte{0x01, 'a', 'b', 0x40, 0x01, 0x00, '.'}, "ababab."},
		{"non-overlapping", []byte{0x03, 'w', 'x', 'y', 'z', 0x40, 0x03, 0x00, '!'}, "wxyzwxyz!"},
		{"long match", []byte{0x00, 'x', 0xE0, 0xFF, 0x0A, 0x00, 0x00, 'y'}, string(bytes.Repeat([]byte{'x'}, 275)) + "y"},
		{"far match", far, string(farWant)},
		{"trailing far match header ignored", far[:len(far)-2], string(farWant[:8224])},
	}
	for _, tt := range tests {
		// Room to spare: the trailing match header is checked against
		// the output before it is dropped.
		out := make([]byte, len(tt.want)+3)
		n, err := decodeBloscLZ(tt.in, out)
		if err != nil || string(out[:n]) != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.name, out[:n], err, tt.want)
		}
		if ref, ok := refBloscLZ(tt.in, len(out)); !ok || string(ref) != tt.want {
			t.Errorf("%s: reference decoder disagrees: %q %v", tt.name, ref, ok)
		}
	}
}

func TestBloscLZRefuses(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		out  int
	}{
		{"empty", nil, 4},
		{"literal past input", []byte{0x05, 'a'}, 10},
		{"literal past output", []byte{0x05, 1, 2, 3, 4, 5, 6}, 3},
		{"match before start", []byte{0x00, 'a', 0x20, 0x05, 0x00, 'b'}, 10},
		{"match past output", []byte{0x00, 'a', 0x20, 0x00, 0x00, 'b'}, 3},
		{"match header cut", []byte{0x00, 'a', 0x20}, 10},
		{"distance is the last byte", []byte{0x00, 'a', 0x20, 0x00}, 10},
		{"extension never ends", []byte{0x00, 'a', 0xE0, 0xFF, 0xFF}, 1000},
		{"far distance cut", []byte{0x00, 'a', 0x3F, 0xFF, 0x00}, 10},
	}
	for _, tt := range tests {
		_, err := decodeBloscLZ(tt.in, make([]byte, tt.out))
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: error %v, want ErrCorrupt", tt.name, err)
		}
		if _, ok := refBloscLZ(tt.in, tt.out); ok {
			t.Errorf("%s: reference decoder accepts it", tt.name)
		}
	}
}

// FuzzBloscLZ checks decodeBloscLZ against the plain reference decoder:
// the same bytes or both refusing, never a panic or an out-of-range write.
func FuzzBloscLZ(f *testing.F) {
	f.Add([]byte{0x02, 'a', 'b', 'c'}, 8)
	f.Add([]byte{0x00, 'x', 0xE0, 0xFF, 0x0A, 0x00, 0x00, 'y'}, 300)
	f.Add([]byte{0x01, 'a', 'b', 0x60, 0x01, 0x00, '.'}, 7)
	f.Add([]byte{0x00, 'a', 0x3F, 0xFF, 0x00, 0x00, 0x00, 'z'}, 8300)
	f.Fuzz(func(t *testing.T, in []byte, size int) {
		if size < 0 || size > 1<<16 {
			return
		}
		out := make([]byte, size+8)
		guard := out[size:]
		for i := range guard {
			guard[i] = 0xA5
		}
		n, err := decodeBloscLZ(in, out[:size:size])
		if n < 0 || n > size {
			t.Fatalf("wrote %d bytes into %d", n, size)
		}
		ref, ok := refBloscLZ(in, size)
		if ok != (err == nil) {
			t.Fatalf("decoder error %v, reference ok %v", err, ok)
		}
		if ok && !bytes.Equal(out[:n], ref) {
			t.Fatalf("decoder and reference differ")
		}
		if !bytes.Equal(guard, bytes.Repeat([]byte{0xA5}, 8)) {
			t.Fatalf("wrote past the output")
		}
	})
}

// randomBloscLZ writes a valid BloscLZ stream of random literal runs and
// matches (short and long, near and far, overlapping with every small
// period) and returns it with the bytes it decodes to.
func randomBloscLZ(r *rand.Rand, ops int) (stream, want []byte) {
	lit := func(n int) {
		stream = append(stream, byte(n-1))
		for range n {
			b := byte(r.IntN(4)) // few symbols, so matches look like data
			stream = append(stream, b)
			want = append(want, b)
		}
	}
	lit(1 + r.IntN(32))
	for range ops {
		if r.IntN(3) == 0 {
			lit(1 + r.IntN(32))
			continue
		}
		var back int
		switch r.IntN(4) {
		case 0:
			back = 1 + r.IntN(min(16, len(want)))
		case 1:
			back = 1 + r.IntN(min(8191, len(want)))
		default:
			back = 1 + r.IntN(len(want))
		}
		length := 3 + r.IntN(6)
		if r.IntN(3) == 0 {
			length = 9 + r.IntN(600)
		}
		far := back > 8191
		dist := back - 1
		if far {
			dist = 31<<8 | 255
		}
		if length <= 8 {
			stream = append(stream, byte((length-2)<<5|dist>>8))
		} else {
			stream = append(stream, byte(7<<5|dist>>8))
			ext := length - 9
			for ; ext >= 255; ext -= 255 {
				stream = append(stream, 255)
			}
			stream = append(stream, byte(ext))
		}
		stream = append(stream, byte(dist))
		if far {
			stream = append(stream, byte((back-8192)>>8), byte(back-8192))
		}
		for range length {
			want = append(want, want[len(want)-back])
		}
	}
	lit(1 + r.IntN(32))
	return stream, want
}

// TestBloscLZRandomStreams checks the word-copy paths (literal runs and
// matches copied in words, run fills) against the byte semantics on
// random valid streams decoded into an exactly sized output.
func TestBloscLZRandomStreams(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 300 {
		in, want := randomBloscLZ(r, r.IntN(400))
		if ref, ok := refBloscLZ(in, len(want)); !ok || !bytes.Equal(ref, want) {
			t.Fatalf("stream %d: the reference decoder disagrees with the writer", i)
		}
		out := make([]byte, len(want)+8)
		guard := out[len(want):]
		for k := range guard {
			guard[k] = 0xA5
		}
		n, err := decodeBloscLZ(in, out[:len(want):len(want)])
		if err != nil || n != len(want) || !bytes.Equal(out[:n], want) {
			t.Fatalf("stream %d (%d bytes): n=%d err=%v, or the bytes differ", i, len(want), n, err)
		}
		if !bytes.Equal(guard, bytes.Repeat([]byte{0xA5}, 8)) {
			t.Fatalf("stream %d: wrote past the output", i)
		}
	}
}
