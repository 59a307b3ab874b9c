package blosc

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestUnshuffleKnown(t *testing.T) {
	// Two 2-byte elements and a 1-byte tail.
	src := []byte{1, 3, 2, 4, 9}
	dst := make([]byte, 5)
	unshuffle(dst, src, 2)
	if want := []byte{1, 2, 3, 4, 9}; !bytes.Equal(dst, want) {
		t.Fatalf("unshuffle = %v, want %v", dst, want)
	}
}

func TestUnbitshuffleKnown(t *testing.T) {
	// Eight 1-byte elements: element i = 1<<i, so row k is 1<<k.
	src := make([]byte, 8)
	for k := range src {
		src[k] = 1 << k
	}
	dst := make([]byte, 8)
	unbitshuffle(dst, src, 1, 5, nil)
	for i, v := range dst {
		if v != 1<<i {
			t.Fatalf("element %d = %#x, want %#x", i, v, 1<<i)
		}
	}
}

// TestFilterRoundTrips undoes each forward transform on random blocks of
// many sizes, including tails shorter than an element.
func TestFilterRoundTrips(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, es := range []int{1, 2, 3, 4, 8, 16} {
		for _, n := range []int{0, 1, 7, 8, 63, 64, 65, 200, 1027} {
			src := make([]byte, n)
			for i := range src {
				src[i] = byte(r.IntN(256))
			}
			name := fmt.Sprintf("es%d/n%d", es, n)
			dst := make([]byte, n)
			unshuffle(dst, shuffle(src, es), es)
			if !bytes.Equal(dst, src) {
				t.Errorf("%s: shuffle round trip", name)
			}
			clear(dst)
			unbitshuffle(dst, bitshuffle(src, es), es, 5, make([]byte, n))
			if !bytes.Equal(dst, src) {
				t.Errorf("%s: bitshuffle round trip", name)
			}
			b := bytedelta(src, es)
			unbytedelta(b, es)
			if !bytes.Equal(b, src) {
				t.Errorf("%s: bytedelta round trip", name)
			}
			w := deltaUnit(es)
			d := delta(src, nil, w)
			undelta(d, nil, w)
			if !bytes.Equal(d, src) {
				t.Errorf("%s: delta block-0 round trip", name)
			}
			ref := make([]byte, n/2)
			for i := range ref {
				ref[i] = byte(r.IntN(256))
			}
			d = delta(src, ref, w)
			undelta(d, ref, w)
			if !bytes.Equal(d, src) {
				t.Errorf("%s: delta reference round trip", name)
			}
		}
	}
}

func TestUnbitshuffleVersion2(t *testing.T) {
	// Version 2 chunks leave a block whose element count is not a
	// multiple of 8 untouched.
	src := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	dst := make([]byte, len(src))
	unbitshuffle(dst, src, 1, 2, nil)
	if !bytes.Equal(dst, src) {
		t.Fatalf("version 2 partial block changed: %v", dst)
	}
}

func TestDeltaUnit(t *testing.T) {
	for ts, want := range map[int]int{1: 1, 2: 2, 3: 1, 4: 4, 8: 8, 12: 1, 16: 8, 24: 8} {
		if got := deltaUnit(ts); got != want {
			t.Errorf("deltaUnit(%d) = %d, want %d", ts, got, want)
		}
	}
}
