package tgm

import (
	"encoding/binary"
	"math"
	"math/bits"
	"testing"

	"github.com/tetsql/tetsql/array"
)

// rcont is one Roaring container to serialise: array values, a bitmap of
// 1024 words, or runs of (start, length − 1).
type rcont struct {
	key    uint16
	vals   []uint16
	bitmap []uint64
	runs   [][2]uint16
}

func (c rcont) card() int {
	switch {
	case c.bitmap != nil:
		n := 0
		for _, w := range c.bitmap {
			n += bits.OnesCount64(w)
		}
		return n
	case c.runs != nil:
		n := 0
		for _, r := range c.runs {
			n += int(r[1]) + 1
		}
		return n
	}
	return len(c.vals)
}

// roaringOf writes containers in the portable format, with the run
// cookie when withRuns (required when any container has runs).
func roaringOf(cs []rcont, withRuns bool) []byte {
	le16 := binary.LittleEndian.AppendUint16
	le32 := binary.LittleEndian.AppendUint32
	var b []byte
	if withRuns {
		b = le32(b, uint32(roaringCookieRun)|uint32(len(cs)-1)<<16)
		flags := make([]byte, (len(cs)+7)/8)
		for i, c := range cs {
			if c.runs != nil {
				flags[i/8] |= 1 << (i % 8)
			}
		}
		b = append(b, flags...)
	} else {
		b = le32(le32(b, roaringCookieNoRun), uint32(len(cs)))
	}
	for _, c := range cs {
		b = le16(le16(b, c.key), uint16(c.card()-1))
	}
	if !withRuns || len(cs) >= roaringNoOffsetLimit {
		for range cs {
			b = le32(b, 0) // offsets: not used by the reader
		}
	}
	for _, c := range cs {
		switch {
		case c.runs != nil:
			b = le16(b, uint16(len(c.runs)))
			for _, r := range c.runs {
				b = le16(le16(b, r[0]), r[1])
			}
		case c.bitmap != nil:
			for _, w := range c.bitmap {
				b = binary.LittleEndian.AppendUint64(b, w)
			}
		default:
			for _, v := range c.vals {
				b = le16(b, v)
			}
		}
	}
	return b
}

// positions lists the set bits of an MSB-first bitset.
func positions(set []byte) []int64 {
	var out []int64
	for i := range int64(len(set)) * 8 {
		if set[i/8]&(0x80>>(i%8)) != 0 {
			out = append(out, i)
		}
	}
	return out
}

func TestRoaring(t *testing.T) {
	bm := make([]uint64, 1024)
	for i := range bm {
		bm[i] = 0x8000000000000001 | 0xFF<<8 // 10 bits a word: 10240 > 4096
	}
	cases := []struct {
		name  string
		blob  []byte
		n     int64
		count int
		check []int64 // positions that must be set
	}{
		{"array", roaringOf([]rcont{{key: 0, vals: []uint16{0, 5, 65535}}, {key: 2, vals: []uint16{1}}}, false),
			1 << 18, 4, []int64{0, 5, 65535, 2<<16 + 1}},
		{"runs, no offsets", roaringOf([]rcont{{key: 0, runs: [][2]uint16{{3, 2}, {10, 0}}}, {key: 1, vals: []uint16{7}}}, true),
			1 << 17, 5, []int64{3, 4, 5, 10, 1<<16 + 7}},
		{"runs with offsets", roaringOf([]rcont{{key: 0, runs: [][2]uint16{{0, 0}}}, {key: 1, vals: []uint16{0}},
			{key: 2, vals: []uint16{0}}, {key: 3, runs: [][2]uint16{{65534, 1}}}}, true),
			1 << 18, 5, []int64{0, 1 << 16, 2 << 16, 4<<16 - 2, 4<<16 - 1}},
		{"bitmap", roaringOf([]rcont{{key: 1, bitmap: bm}}, false), 2 << 16, 10240, []int64{1 << 16, 1<<16 + 8, 1<<16 + 63, 2<<16 - 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			set, err := decodeRoaring(c.blob, c.n)
			if err != nil {
				t.Fatal(err)
			}
			got := positions(set)
			if len(got) != c.count {
				t.Errorf("%d positions, want %d", len(got), c.count)
			}
			for _, p := range c.check {
				if set[p/8]&(0x80>>(p%8)) == 0 {
					t.Errorf("position %d not set", p)
				}
			}
		})
	}
	for _, c := range []struct {
		name string
		blob []byte
		n    int64
		word string
	}{
		{"empty", nil, 10, "bytes needed"},
		{"cookie", []byte{1, 2, 3, 4}, 10, "cookie"},
		{"position past n", roaringOf([]rcont{{key: 0, vals: []uint16{10}}}, false), 10, "position 10"},
		{"run past n", roaringOf([]rcont{{key: 0, runs: [][2]uint16{{5, 5}}}}, true), 10, "outside the 10 elements"},
		{"overlapping runs", roaringOf([]rcont{{key: 0, runs: [][2]uint16{{0, 5}, {3, 1}}}}, true), 100, "overlaps"},
		{"keys not increasing", roaringOf([]rcont{{key: 1, vals: []uint16{1}}, {key: 1, vals: []uint16{2}}}, false), 1 << 20, "not increasing"},
		{"too many containers", binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, roaringCookieNoRun), 1<<20), 10, "containers"},
		{"cut", roaringOf([]rcont{{key: 0, vals: []uint16{1, 2, 3}}}, false)[:15], 10, "bytes needed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := decodeRoaring(c.blob, c.n)
			wantErr(t, err, array.ErrCorrupt, c.word)
		})
	}
}

// maskSpec is a descriptor mask entry.
func maskSpec(method string, off, n int) map[string]any {
	return map[string]any{"method": method, "offset": off, "length": n}
}

func TestMasks(t *testing.T) {
	const n = 20
	payload := f64le(make([]float64, n)...)
	nanBits := []byte{0x80, 0, 0x10}                       // elements 0 and 19
	rle := []byte{0, 3, 2, 15}                             // elements 3, 4
	roar := roaringOf([]rcont{{vals: []uint16{7}}}, false) // element 7
	region := append(append(append(append([]byte{}, payload...), nanBits...), rle...), roar...)
	p := len(payload)
	d := desc([]int{4, 5}, "float64", "masks", map[string]any{
		"nan": maskSpec("none", p, 3), "inf+": maskSpec("rle", p+3, 4), "inf-": maskSpec("roaring", p+7, len(roar))})
	o := oneObject(t, d, region)
	out, err := o.Decode(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		v := array.F64.Float64(out, i)
		switch i {
		case 0, 19:
			if !math.IsNaN(v) || binary.LittleEndian.Uint64(out[8*i:]) != nan64 {
				t.Errorf("element %d = %v, want the canonical NaN", i, v)
			}
		case 3, 4:
			if !math.IsInf(v, 1) {
				t.Errorf("element %d = %v, want +Inf", i, v)
			}
		case 7:
			if !math.IsInf(v, -1) {
				t.Errorf("element %d = %v, want -Inf", i, v)
			}
		default:
			if v != 0 {
				t.Errorf("element %d = %v, want 0", i, v)
			}
		}
	}

	// Compressed masks, on float32 and float16.
	for _, c := range []struct {
		dtype  string
		method string
		blob   []byte
	}{{"float32", "zstd", zstdOf(t, nanBits)}, {"float16", "lz4", lz4Of(nanBits)}} {
		w := dtypes[c.dtype].width
		pl := make([]byte, n*w)
		o := oneObject(t, desc([]int{n}, c.dtype, "masks", map[string]any{"nan": maskSpec(c.method, len(pl), len(c.blob))}),
			append(pl, c.blob...))
		out, err := o.Decode(nil, 0)
		typ, _ := o.Type()
		if err != nil || !math.IsNaN(typ.Float64(out, 19)) || !math.IsNaN(typ.Float64(out, 0)) || typ.Float64(out, 1) != 0 {
			t.Errorf("%s %s mask: %v", c.dtype, c.method, err)
		}
	}
}

func TestMaskRefusals(t *testing.T) {
	const n = 10
	payload := f64le(make([]float64, n)...)
	p := len(payload)
	with := func(blobs []byte, masks map[string]any, dtype string) (*Object, error) {
		f, err := Scan(message([]tframe{objectFrame(t, desc([]int{n}, dtype, "masks", masks), append(append([]byte{}, payload...), blobs...), false)}, false, 0))
		if err != nil {
			return nil, err
		}
		return &f.Messages[0].Objects[0], nil
	}
	for _, c := range []struct {
		name     string
		blobs    []byte
		masks    map[string]any
		dtype    string
		scan     bool // the error comes from Scan
		sentinel error
		word     string
	}{
		{"outside the region", []byte{0, 0}, map[string]any{"nan": maskSpec("none", p, 3)}, "float64", true, array.ErrCorrupt, "outside"},
		{"not a map", nil, map[string]any{"nan": 3}, "float64", true, array.ErrCorrupt, "not a map"},
		{"no method", []byte{0, 0}, map[string]any{"nan": map[string]any{"offset": p, "length": 2}}, "float64", true, array.ErrCorrupt, "method"},
		{"overlap", []byte{0x40, 0, 0x40, 0}, map[string]any{"nan": maskSpec("none", p, 2), "inf-": maskSpec("none", p+2, 2)}, "float64", false, array.ErrCorrupt, "overlaps another mask at element 1"},
		{"bits past n", []byte{0, 0x20}, map[string]any{"nan": maskSpec("none", p, 2)}, "float64", false, array.ErrCorrupt, "past the last"},
		{"wrong size", []byte{0}, map[string]any{"nan": maskSpec("none", p, 1)}, "float64", false, array.ErrCorrupt, "2 expected"},
		{"rle short", []byte{1, 3}, map[string]any{"nan": maskSpec("rle", p, 2)}, "float64", false, array.ErrCorrupt, "cover 3 of 10"},
		{"rle long", []byte{1, 30}, map[string]any{"nan": maskSpec("rle", p, 2)}, "float64", false, array.ErrCorrupt, "pass the 10"},
		{"rle first byte", []byte{2, 10}, map[string]any{"nan": maskSpec("rle", p, 2)}, "float64", false, array.ErrCorrupt, "0 or 1"},
		{"rle varint", []byte{0, 0x80}, map[string]any{"nan": maskSpec("rle", p, 2)}, "float64", false, array.ErrCorrupt, "run length"},
		{"method", []byte{0, 0}, map[string]any{"nan": maskSpec("bzip2", p, 2)}, "float64", false, array.ErrUnsupported, "bzip2"},
		{"integers", []byte{0x80, 0}, map[string]any{"nan": maskSpec("none", p, 2)}, "int64", false, array.ErrCorrupt, "no NaN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := with(c.blobs, c.masks, c.dtype)
			if c.scan {
				wantErr(t, err, c.sentinel, c.word)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_, err = o.Decode(nil, 0)
			wantErr(t, err, c.sentinel, c.word)
		})
	}
}
