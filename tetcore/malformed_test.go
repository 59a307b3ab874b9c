package tetcore_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/tetcore"
)

// TestParse_truncatedAtEveryOffset cuts the sample at every byte. A cut
// before the end of the payloads must fail with ErrTruncated and context;
// a cut inside the footer must open with the footer reported damaged and
// every dataset intact.
func TestParse_truncatedAtEveryOffset(t *testing.T) {
	t.Parallel()
	for _, meta := range []bool{true, false} {
		t.Run(fmt.Sprintf("footer=%v", meta), func(t *testing.T) {
			t.Parallel()
			s := buildSample(t, meta)
			if len(s.data) > 8<<10 {
				t.Fatalf("sample is %d bytes; keep it small", len(s.data))
			}
			opened := 0
			for n := 0; n < len(s.data); n++ {
				f, err := tetcore.Parse(s.data[:n])
				if n < s.payloadEnd {
					if err == nil {
						t.Fatalf("cut at %d (payloads end at %d) opened", n, s.payloadEnd)
					}
					if !errors.Is(err, tetcore.ErrTruncated) || !hasContext(err) {
						t.Fatalf("cut at %d: %v; want ErrTruncated with context", n, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("cut at %d inside the footer (starts at %d): %v", n, s.payloadEnd, err)
				}
				opened++
				if !f.HasFooter() || !strings.HasPrefix(f.FooterStatus(), "damaged: ") {
					t.Fatalf("cut at %d: footer status %q", n, f.FooterStatus())
				}
				checkContents(t, f, s)
				rep, err := f.VerifyReport(tetcore.VerifyDeep)
				if err != nil || !rep.OK() || len(rep.Findings) != 1 || !strings.Contains(rep.Findings[0].Message, "footer damaged") {
					t.Fatalf("cut at %d: verify %v %v", n, err, rep)
				}
				f.Close()
			}
			if want := len(s.data) - s.payloadEnd; opened != want {
				t.Errorf("%d cuts opened, want %d", opened, want)
			}
			f, err := tetcore.Parse(s.data)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]string{true: "ok", false: "absent"}[meta]; f.FooterStatus() != want {
				t.Errorf("whole file: footer %q, want %q", f.FooterStatus(), want)
			}
			checkContents(t, f, s)
		})
	}
}

// Hostile values for the field table.
const (
	u64max   = math.MaxUint64
	near2p63 = 1<<63 - 1
	at2p63   = 1 << 63
	near2p64 = math.MaxUint64 - 103
)

var hostile64 = []uint64{0, 1, 2, u64max, near2p63, at2p63, near2p64, 1 << 32}
var hostile32 = []uint64{0, 1, 2, math.MaxUint32, 1 << 31, 0x7fffffff}

type fieldCase struct {
	name   string
	off    int // absolute offset of the field
	size   int // 2, 4 or 8
	values []uint64
	// legal, when non-nil, says which values must open (and read back
	// correctly); check, if set, inspects such a file further.
	legal func(v uint64) bool
	check func(t *testing.T, f *tetcore.File, v uint64)
	want  []error // acceptable sentinels for the others (any if empty)
	ctx   string  // substring the error must contain
}

func put(b []byte, off, size int, v uint64) {
	switch size {
	case 1:
		b[off] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b[off:], uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b[off:], uint32(v))
	default:
		binary.LittleEndian.PutUint64(b[off:], v)
	}
}

func get(b []byte, off, size int) uint64 {
	switch size {
	case 1:
		return uint64(b[off])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b[off:]))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b[off:]))
	}
	return binary.LittleEndian.Uint64(b[off:])
}

func only(vals ...uint64) func(uint64) bool {
	return func(v uint64) bool {
		for _, w := range vals {
			if v == w {
				return true
			}
		}
		return false
	}
}

func always(uint64) bool { return true }

var (
	corruptOnly  = []error{tetcore.ErrCorrupt}
	structural   = []error{tetcore.ErrCorrupt, tetcore.ErrTruncated}
	unsupported  = []error{tetcore.ErrUnsupported}
	badMagicOnly = []error{tetcore.ErrBadMagic}
)

// fieldCases lists every header and index field of the sample.
func fieldCases(s *sample) []fieldCase {
	h64 := hostile64
	cs := []fieldCase{
		{name: "superblock/magic", off: 0, size: 4, values: []uint64{0, 1, u64max, 0x52544554 ^ 0x20}, want: badMagicOnly, ctx: "superblock"},
		{name: "superblock/layout_version", off: 4, size: 4, values: hostile32, legal: only(1), want: unsupported, ctx: "layout_version"},
		{name: "superblock/dataset_count", off: 8, size: 4, values: append([]uint64{3, 5}, hostile32...), want: structural, ctx: ""},
		{name: "superblock/flags", off: 12, size: 4, values: hostile32, legal: only(0, 1), want: unsupported, ctx: "flags",
			check: func(t *testing.T, f *tetcore.File, v uint64) {
				if want := map[uint64]string{0: "absent", 1: "ok"}[v]; f.FooterStatus() != want {
					t.Errorf("flags %d: footer %q", v, f.FooterStatus())
				}
			}},
		{name: "superblock/chunk_index_offset", off: 16, size: 8, values: append([]uint64{uint64(s.index) + 8, uint64(s.index) - 8}, h64...), want: structural, ctx: "superblock"},
		{name: "superblock/chunk_index_length", off: 24, size: 8, values: append([]uint64{32, uint64(32 + 104*(s.entries-1))}, h64...), want: structural, ctx: "chunk index"},
		{name: "directory/blob_len", off: 32, size: 8, values: append([]uint64{uint64(s.index - 40 - 8), uint64(s.index - 40 + 8)}, h64...), want: structural, ctx: "dataset"},
		{name: "index/magic", off: s.index, size: 4, values: []uint64{0, u64max, 0x58444954 ^ 0x2000}, want: badMagicOnly, ctx: "chunk index"},
		{name: "index/version", off: s.index + 4, size: 4, values: hostile32, legal: only(1), want: unsupported, ctx: "index_version"},
		{name: "index/entry_count", off: s.index + 8, size: 8, values: append([]uint64{uint64(s.entries - 1), uint64(s.entries + 1)}, h64...), want: corruptOnly, ctx: "entry_count"},
		{name: "index/memory_budget_percent_bps", off: s.index + 16, size: 2, values: []uint64{0, 1, 2500, 10000, 10001, math.MaxUint16}, legal: func(v uint64) bool { return v <= 10000 }, want: corruptOnly, ctx: "memory_budget_percent_bps",
			check: func(t *testing.T, f *tetcore.File, v uint64) {
				if uint64(f.MemoryBudgetBPS) != v {
					t.Errorf("MemoryBudgetBPS %d, want %d", f.MemoryBudgetBPS, v)
				}
			}},
		{name: "index/reserved16", off: s.index + 18, size: 2, values: []uint64{1, 0x8000, math.MaxUint16}, want: corruptOnly, ctx: "reserved"},
		{name: "index/memory_budget_bytes", off: s.index + 20, size: 4, values: hostile32, legal: always,
			check: func(t *testing.T, f *tetcore.File, v uint64) {
				if uint64(f.MemoryBudgetBytes) != v {
					t.Errorf("MemoryBudgetBytes %d, want %d", f.MemoryBudgetBytes, v)
				}
			}},
		{name: "index/reserved64", off: s.index + 24, size: 8, values: []uint64{1, u64max, at2p63}, want: corruptOnly, ctx: "reserved"},
	}
	for i, r := range s.records {
		g := s.sets[i].spec
		rank, nameLen := len(g.Shape), len(g.Name)
		shapeAt := r + (16+nameLen+7)&^7
		p := fmt.Sprintf("record %d/", i)
		cs = append(cs,
			// A longer name_len is legal while it only swallows zero padding.
			fieldCase{name: p + "name_len", off: r, size: 4, values: append([]uint64{uint64(nameLen - 1), uint64(nameLen + 1), uint64(nameLen + 8)}, hostile32...), want: structural, ctx: "dataset",
				legal: func(v uint64) bool { return v > uint64(nameLen) && (16+v+7)&^7 == uint64(16+nameLen+7)&^7 },
				check: func(t *testing.T, f *tetcore.File, v uint64) {
					if want := g.Name + strings.Repeat("\x00", int(v)-nameLen); f.Datasets[i].Name != want {
						t.Errorf("name %q, want %q", f.Datasets[i].Name, want)
					}
				}},
			// Another tag of the same size is legal: the bytes are the same.
			fieldCase{name: p + "dtype", off: r + 4, size: 4, values: append([]uint64{3, 4, 6, 7, 8, 10, 11, 0xff}, hostile32...), want: corruptOnly, ctx: g.Name,
				legal: func(v uint64) bool { return v <= 10 && tetcore.DType(v).Size() == g.DType.Size() }},
			fieldCase{name: p + "ndim", off: r + 8, size: 4, values: append([]uint64{9, uint64(rank + 1)}, hostile32...), want: structural, ctx: "dataset"},
			fieldCase{name: p + "reserved", off: r + 12, size: 4, values: []uint64{1, math.MaxUint32}, want: corruptOnly, ctx: "reserved"},
		)
		if pad := shapeAt - (r + 16 + nameLen); pad > 0 {
			cs = append(cs, fieldCase{name: p + "padding", off: shapeAt - 1, size: 1, values: []uint64{1, 0xff}, want: corruptOnly, ctx: "padding"})
		}
		for a := 0; a < rank; a++ {
			sh, ch := uint64(g.Shape[a]), uint64(g.ChunkShape[a])
			cs = append(cs,
				fieldCase{name: fmt.Sprintf("%sshape[%d]", p, a), off: shapeAt + 8*a, size: 8, values: append([]uint64{sh - 1, sh + 1, sh + ch}, hostile64...), want: corruptOnly, ctx: g.Name,
					legal: func(v uint64) bool { return s.geometryOK(i, a, v, ch) }},
				fieldCase{name: fmt.Sprintf("%schunk_shape[%d]", p, a), off: shapeAt + 8*(rank+a), size: 8, values: append([]uint64{ch - 1, ch + 1}, hostile64...), want: corruptOnly, ctx: g.Name,
					legal: func(v uint64) bool { return s.geometryOK(i, a, sh, v) }},
			)
		}
	}
	return append(cs, entryCases(s)...)
}

// entryCases covers each field of a few index entries: the first (u8,
// raw), an edge chunk, and a zstd chunk.
func entryCases(s *sample) []fieldCase {
	var cs []fieldCase
	le := binary.LittleEndian
	for _, i := range []int{0, 8, 9, s.entries - 1} {
		e := s.entry(i)
		id := le.Uint64(s.data[e:])
		g := s.sets[id].spec
		rank := len(g.Shape)
		p := fmt.Sprintf("entry %d/", i)
		raw, stored := le.Uint64(s.data[e+80:]), le.Uint64(s.data[e+88:])
		zstd := le.Uint32(s.data[e+96:]) == 1
		cs = append(cs, fieldCase{name: p + "dataset_id", off: e, size: 8, values: append([]uint64{4, id ^ 1}, hostile64...), want: corruptOnly, ctx: "chunk", legal: only(id)})
		for a := 0; a < 8; a++ {
			v := le.Uint64(s.data[e+8+8*a:])
			ctx := g.Name
			if a >= rank {
				ctx = "beyond rank"
			}
			cs = append(cs, fieldCase{name: fmt.Sprintf("%schunk_index[%d]", p, a), off: e + 8 + 8*a, size: 8, values: append([]uint64{v + 1, v ^ 1}, hostile64...), want: corruptOnly, ctx: ctx, legal: only(v)})
		}
		off := le.Uint64(s.data[e+72:])
		cs = append(cs,
			fieldCase{name: p + "payload_offset", off: e + 72, size: 8, values: append([]uint64{uint64(s.index), uint64(s.entry(s.entries)) - 1, uint64(len(s.data))}, hostile64...), want: structural, ctx: g.Name, legal: only(off)},
			fieldCase{name: p + "raw_byte_len", off: e + 80, size: 8, values: append([]uint64{raw - 1, raw + 1, raw * 2}, hostile64...), want: corruptOnly, ctx: "raw_byte_len", legal: only(raw)},
			fieldCase{name: p + "codec", off: e + 96, size: 4, values: append([]uint64{2, 0xff}, hostile32...), want: []error{tetcore.ErrUnsupported, tetcore.ErrCorrupt}, ctx: g.Name,
				legal: func(v uint64) bool { return v == map[bool]uint64{true: 1, false: 0}[zstd] }},
			fieldCase{name: p + "reserved", off: e + 100, size: 4, values: []uint64{1, math.MaxUint32}, want: corruptOnly, ctx: "reserved"},
		)
		sc := fieldCase{name: p + "stored_byte_len", off: e + 88, size: 8, values: append([]uint64{stored + 1, 8, raw}, hostile64...), want: structural, ctx: g.Name, legal: only(stored)}
		if zstd {
			// Any zstd span of at least 9 bytes inside the payload region is
			// structurally fine (it then fails to decode).
			sc.values = append(sc.values, stored-1, stored/2, 9)
			sc.legal = func(v uint64) bool { return v >= 9 && v <= uint64(s.payloadEnd)-off }
		}
		cs = append(cs, sc)
	}
	return cs
}

// TestParse_hostileFieldValues overwrites each field with hostile values.
func TestParse_hostileFieldValues(t *testing.T) {
	t.Parallel()
	s := buildSample(t, true)
	for _, fc := range fieldCases(s) {
		t.Run(fc.name, func(t *testing.T) {
			orig := get(s.data, fc.off, fc.size)
			for _, v := range fc.values {
				v &= math.MaxUint64 >> (64 - 8*fc.size)
				b := s.clone()
				put(b, fc.off, fc.size, v)
				f, err := tetcore.Parse(b)
				if v == orig || (fc.legal != nil && fc.legal(v)) {
					if err != nil {
						t.Fatalf("value %#x: %v", v, err)
					}
					if fc.check != nil {
						fc.check(t, f, v)
					}
					checkLegal(t, f, s)
					continue
				}
				if err == nil {
					t.Fatalf("value %#x (was %#x) opened", v, orig)
				}
				ok := len(fc.want) == 0 && isSentinel(err)
				for _, w := range fc.want {
					ok = ok || errors.Is(err, w)
				}
				if !ok || !hasContext(err) || !strings.Contains(err.Error(), fc.ctx) {
					t.Errorf("value %#x: %v; want %v naming %q", v, err, fc.want, fc.ctx)
				}
			}
		})
	}
}

// geometryOK is an independent oracle of spec sections 3–5: would dataset
// id, with axis a changed to shape sh and chunk extent ch, still accept its
// index entries (coordinates inside the grid, raw_byte_len = extent bytes)?
func (s *sample) geometryOK(id, a int, sh, ch uint64) bool {
	g := s.sets[id].spec
	shape, chunk := slices.Clone(g.Shape), slices.Clone(g.ChunkShape)
	if sh > math.MaxInt64 || ch < 1 || ch > math.MaxInt64 {
		return false
	}
	shape[a], chunk[a] = int64(sh), int64(ch)
	elems, grid := big.NewInt(1), big.NewInt(1)
	for d := range shape {
		elems.Mul(elems, big.NewInt(shape[d]))
		grid.Mul(grid, big.NewInt((shape[d]+chunk[d]-1)/chunk[d]))
	}
	limit := big.NewInt(math.MaxInt64)
	if elems.Cmp(limit) > 0 || grid.Cmp(limit) > 0 || elems.Mul(elems, big.NewInt(int64(g.DType.Size()))).Cmp(limit) > 0 {
		return false
	}
	le := binary.LittleEndian
	for i := range s.entries {
		e := s.entry(i)
		if le.Uint64(s.data[e:]) != uint64(id) {
			continue
		}
		n := uint64(g.DType.Size())
		for d := range shape {
			c := le.Uint64(s.data[e+8+8*d:])
			if c >= uint64((shape[d]+chunk[d]-1)/chunk[d]) {
				return false
			}
			n *= uint64(min(chunk[d], shape[d]-int64(c)*chunk[d]))
		}
		if n != le.Uint64(s.data[e+80:]) {
			return false
		}
	}
	return true
}

// checkLegal reads every chunk of a file that legitimately opened after a
// patch: chunks must decode to the original bytes (or, for a shortened
// zstd payload, fail with ErrDecode naming the dataset).
func checkLegal(t *testing.T, f *tetcore.File, s *sample) {
	t.Helper()
	for i, ds := range f.Datasets {
		for j := range ds.Chunks() {
			c := &ds.Chunks()[j]
			if _, err := f.ReadChunk(ds, c, nil); err != nil {
				if !errors.Is(err, tetcore.ErrDecode) || !strings.Contains(err.Error(), ds.Name) {
					t.Errorf("ReadChunk: %v", err)
				}
				return
			}
		}
		if int64(len(ds.Chunks())) != ds.ChunkCount() {
			// The grid grew (a legal shape change): the old chunks are
			// still there and the rest is reported missing.
			rep, err := f.VerifyReport(tetcore.VerifyDeep)
			if err != nil || rep.OK() || !strings.Contains(rep.Findings[0].Message, "absent from the index") {
				t.Errorf("sparse dataset %q: verify %v %v", ds.Name, err, rep)
			}
			continue
		}
		if got := assemble(t, f, ds); string(got) != string(s.sets[i].data) {
			t.Errorf("dataset %q: values differ", ds.Name)
		}
	}
}
