package tgm

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/array"
	"github.com/zeebo/xxh3"
)

// rawDesc is the descriptor of n raw little-endian float64 values.
func rawDesc(n int) map[string]any {
	return map[string]any{"type": "ntensor", "ndim": 1, "shape": []int{n}, "strides": []int{1},
		"dtype": "float64", "encoding": "none", "filter": "none", "compression": "none"}
}

// meta is metadata with one base entry per name.
func meta(names ...string) map[string]any {
	base := []any{}
	for _, n := range names {
		base = append(base, map[string]any{"name": n})
	}
	return map[string]any{"base": base, "_extra_": map[string]any{"k": 1}}
}

// wantErr fails unless err wraps sentinel and mentions word.
func wantErr(t *testing.T, err, sentinel error, word string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %v mentioning %q", sentinel, word)
	}
	if !errors.Is(err, sentinel) || !strings.Contains(err.Error(), word) {
		t.Fatalf("error %q, want %v mentioning %q", err, sentinel, word)
	}
}

// decodeF64 decodes object o of message m of data, as float64 values.
func decodeF64(t *testing.T, f *File, m, o int) []float64 {
	t.Helper()
	out, err := f.Messages[m].Objects[o].Decode(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	vs := make([]float64, len(out)/8)
	for i := range vs {
		vs[i] = array.F64.Float64(out, i)
	}
	return vs
}

func TestScanLayouts(t *testing.T) {
	obj := objectFrame(t, rawDesc(2), f64le(1.5, -2), true)
	one := simpleMessage(t, true, 1.5, -2)
	cases := []struct {
		name    string
		data    []byte
		msgs    int
		skipped int64
		names   []string
	}{
		{"plain", one, 1, 0, []string{"x"}},
		{"streaming", message([]tframe{metaFrame(t, 1, meta("a"), false), obj,
			metaFrame(t, 7, meta("b"), false)}, true, 0), 1, 0, []string{"b"}},
		{"streaming then sized", append(message([]tframe{obj}, true, 0), one...), 2, 0, []string{"object_0", "x"}},
		{"garbage between", bytes.Join([][]byte{[]byte("junk!"), one, []byte("more junk"), one}, nil), 2, 14, []string{"x", "x"}},
		{"trailing zeros", append(append([]byte{}, one...), make([]byte, 16)...), 1, 16, []string{"x"}},
		{"footer frames in any order", message([]tframe{obj, metaFrame(t, 7, meta("f"), true),
			metaFrame(t, 5, map[string]any{"algorithm": "xxh3", "hashes": []string{hexHash(obj)}}, false),
			metaFrame(t, 6, map[string]any{"offsets": []int{24}, "lengths": []int{len(obj.bytesOf())}}, false)},
			false, 0), 1, 0, []string{"f"}},
		{"base shorter than objects", message([]tframe{metaFrame(t, 1, meta("a"), false), obj, obj}, false, 0),
			1, 0, []string{"a", "object_1"}},
		{"no metadata at all", message([]tframe{obj}, false, 0), 1, 0, []string{"object_0"}},
		{"mars param names", message([]tframe{metaFrame(t, 1, map[string]any{"base": []any{
			map[string]any{"mars": map[string]any{"param": 167}}, map[string]any{"name": "", "mars": map[string]any{"param": "2t"}}}}, false),
			obj, obj}, false, 0), 1, 0, []string{"167", "2t"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Scan(c.data)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Messages) != c.msgs || f.Skipped != c.skipped {
				t.Fatalf("%d messages, %d skipped; want %d, %d", len(f.Messages), f.Skipped, c.msgs, c.skipped)
			}
			var names []string
			for _, m := range f.Messages {
				for _, o := range m.Objects {
					names = append(names, o.Name)
					if got := decodeF64(t, f, m.Index, o.Index); len(got) != 2 || got[0] != 1.5 || got[1] != -2 {
						t.Errorf("message %d object %d: %v", m.Index, o.Index, got)
					}
				}
			}
			if strings.Join(names, ",") != strings.Join(c.names, ",") {
				t.Errorf("names %v, want %v", names, c.names)
			}
		})
	}
}

// hexHash is the digest of a frame's body as a hash frame writes it.
func hexHash(f tframe) string { return hex16(xxh3.Hash(f.body)) }

func hex16(v uint64) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 16)
	for i := 15; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b)
}

func TestScanRefusals(t *testing.T) {
	obj := objectFrame(t, rawDesc(2), f64le(1.5, -2), true)
	one := simpleMessage(t, true, 1.5, -2)
	v2 := append([]byte{}, one...)
	v2[9] = 2
	noENDF := append([]byte{}, one...)
	f, err := Scan(one)
	if err != nil {
		t.Fatal(err)
	}
	last := f.Messages[0].Frames[1]
	copy(noENDF[last.Offset+last.Length-4:], "XXXX")
	badPost := append([]byte{}, one...)
	badPost[len(badPost)-9] ^= 1
	badFirstFooter := append([]byte{}, one...)
	badFirstFooter[len(badFirstFooter)-17] ^= 8
	badMetaHash := append([]byte{}, one...)
	badMetaHash[24+16+2] ^= 1 // inside the metadata frame's body
	cases := []struct {
		name     string
		data     []byte
		sentinel error
		word     string
	}{
		{"empty", nil, array.ErrCorrupt, "no Tensogram message"},
		{"only garbage", []byte("not a tensogram file at all"), array.ErrCorrupt, "no Tensogram message"},
		{"cut inside the magic", append(append([]byte{}, one...), "TENSO"...), array.ErrTruncated, "magic"},
		{"cut after the magic", append(append([]byte{}, one...), one[:30]...), array.ErrTruncated, "preamble"},
		{"cut message", one[:len(one)-1], array.ErrTruncated, "remain"},
		{"version 2", v2, array.ErrUnsupported, "wire version 2"},
		{"obsolete type 4", message([]tframe{{typ: 4}}, false, 0), array.ErrUnsupported, "type 4"},
		{"unknown type 10", message([]tframe{{typ: 10}}, false, 0), array.ErrCorrupt, "unknown frame type 10"},
		{"unknown type 0", message([]tframe{{typ: 0}}, false, 0), array.ErrCorrupt, "unknown frame type 0"},
		{"no ENDF", noENDF, array.ErrCorrupt, "ENDF"},
		{"postamble length", badPost, array.ErrCorrupt, "postamble total_length"},
		{"first_footer_offset", badFirstFooter, array.ErrCorrupt, "first_footer_offset"},
		{"metadata hash", badMetaHash, array.ErrCorrupt, "hash mismatch"},
		{"header after data", message([]tframe{obj, metaFrame(t, 1, meta("a"), false)}, false, 0),
			array.ErrCorrupt, "later phase"},
		{"data after footer", message([]tframe{metaFrame(t, 7, meta("a"), false), obj}, false, 0),
			array.ErrCorrupt, "later phase"},
		{"preceder at the end", message([]tframe{obj, metaFrame(t, 8, meta("p"), false)}, false, 0),
			array.ErrCorrupt, "no data object follows"},
		{"preceder before a footer", message([]tframe{metaFrame(t, 8, meta("p"), false), metaFrame(t, 7, meta("a"), false)}, false, 0),
			array.ErrCorrupt, "not followed by a data object"},
		{"preceder with two entries", message([]tframe{metaFrame(t, 8, meta("p", "q"), false), obj}, false, 0),
			array.ErrCorrupt, "exactly one"},
		{"base longer than objects", message([]tframe{metaFrame(t, 1, meta("a", "b"), false), obj}, false, 0),
			array.ErrCorrupt, "2 entries for 1 data objects"},
		{"metadata not a map", message([]tframe{metaFrame(t, 1, []int{1}, false), obj}, false, 0),
			array.ErrCorrupt, "not a map"},
		{"metadata not CBOR", message([]tframe{{typ: 1, body: []byte{0xff, 0x00}}, obj}, false, 0),
			array.ErrCorrupt, "CBOR"},
		{"streaming without postamble", message([]tframe{obj}, true, 0)[:len(message([]tframe{obj}, true, 0))-24],
			array.ErrTruncated, "no postamble"},
		{"streaming frame past the end", message([]tframe{obj}, true, 0)[:60], array.ErrTruncated, "beyond the end of the file"},
		{"streaming garbage after frames", append(message([]tframe{obj}, true, 0)[:24+len(obj.bytesOf())+4], make([]byte, 40)...),
			array.ErrCorrupt, "neither a frame nor a postamble"},
		{"shape not an array", message([]tframe{objectFrame(t, map[string]any{"shape": 3, "dtype": "int8"}, []byte{1, 2, 3}, false)}, false, 0),
			array.ErrCorrupt, "shape"},
		{"ndim mismatch", message([]tframe{objectFrame(t, map[string]any{"shape": []int{3}, "ndim": 2, "dtype": "int8"}, []byte{1, 2, 3}, false)}, false, 0),
			array.ErrCorrupt, "ndim"},
		{"shape overflow", message([]tframe{objectFrame(t, map[string]any{"shape": []uint64{1 << 40, 1 << 40}, "dtype": "int8"}, nil, false)}, false, 0),
			array.ErrCorrupt, "too many elements"},
		{"no dtype", message([]tframe{objectFrame(t, map[string]any{"shape": []int{3}}, []byte{1, 2, 3}, false)}, false, 0),
			array.ErrCorrupt, "dtype is missing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Scan(c.data)
			wantErr(t, err, c.sentinel, c.word)
		})
	}
}
