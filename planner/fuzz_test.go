package planner_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/tetsql/tetsql/planner"
)

// fuzzReader hands out fuzz bytes, then zeros.
type fuzzReader []byte

func (r *fuzzReader) byte() byte {
	if len(*r) == 0 {
		return 0
	}
	b := (*r)[0]
	*r = (*r)[1:]
	return b
}

func (r *fuzzReader) u64() uint64 {
	var b [8]byte
	for i := range b {
		b[i] = r.byte()
	}
	return binary.LittleEndian.Uint64(b[:])
}

// decodeCase turns fuzz bytes into a geometry and constraints. Small mode
// keeps the array tiny so the plan can be checked against brute force;
// huge mode uses arbitrary 64-bit extents, values and offsets.
func decodeCase(data []byte) (small bool, shape, chunk []int64, labels [][]string, cs []planner.Constraint, offset int64) {
	r := fuzzReader(data)
	mode := r.byte()
	small = mode&1 == 0
	rank := 1 + int(mode>>1)%4
	shape, chunk, labels = make([]int64, rank), make([]int64, rank), make([][]string, rank)
	for d := range rank {
		if small {
			shape[d], chunk[d] = int64(r.byte()%7), 1+int64(r.byte()%8)
		} else {
			shape[d], chunk[d] = int64(r.u64()>>(1+r.byte()%63)), 1+int64(r.u64()>>(1+r.byte()%63))
		}
		if k := r.byte() % 4; k > 0 && small {
			labels[d] = make([]string, shape[d])
			for i := range labels[d] {
				switch {
				case mode&8 != 0 && k == 1: // numeric, ascending
					labels[d][i] = strconv.Itoa(i*3 - 5)
				case mode&8 != 0 && k == 2: // numeric, descending (REAL)
					labels[d][i] = strconv.FormatFloat(float64(int(shape[d])-i)*1.5-2, 'f', 1, 64)
				case mode&8 != 0: // numeric, unordered with repeats
					labels[d][i] = strconv.Itoa(int(r.byte()%4) - 1)
				case k == 1:
					labels[d][i] = fmt.Sprintf("L%d", i)
				case k == 2:
					labels[d][i] = fmt.Sprintf("L%d", (int(shape[d])-i)*2)
				default:
					labels[d][i] = fmt.Sprintf("L%d", r.byte()%4)
				}
			}
		}
	}
	for n := r.byte() % 8; n > 0; n-- {
		var c planner.Constraint
		c.Op = planner.Op(1 + r.byte()%7)
		axis := int(r.byte() % byte(rank))
		switch r.byte() % 4 {
		case 0:
			c.Target = planner.RowID()
		case 1:
			if labels[axis] != nil {
				c.Target = planner.Label(axis)
				break
			}
			fallthrough
		default:
			c.Target = planner.Dim(axis)
		}
		switch r.byte() % 8 {
		case 0:
			c.Value = nil
		case 1, 2:
			c.Value = math.Float64frombits(r.u64())
		case 3:
			c.Value = fmt.Sprintf("L%d", r.byte()%16)
		case 4:
			c.Value = []byte{r.byte()}
		case 5:
			c.Value = float64(int8(r.byte())) / 2
		default:
			if small {
				c.Value = int64(int8(r.byte()))
			} else {
				c.Value = int64(r.u64())
			}
		}
		cs = append(cs, c)
	}
	offset = int64(r.u64() >> (r.byte() % 64))
	if small {
		offset %= 64
	}
	return small, shape, chunk, labels, cs, offset
}

func FuzzPlan(f *testing.F) {
	f.Add([]byte{0, 4, 2, 0, 5, 3, 1, 2, 1, 0, 6, 4, 1})
	f.Add([]byte{2, 6, 4, 1, 5, 2, 2, 3, 3, 3, 1, 0, 2, 3, 1, 1, 3, 5, 0, 0, 6})
	f.Add([]byte{6, 3, 1, 3, 6, 2, 0, 2, 5, 3, 4, 0, 7, 0, 0, 1, 5, 0, 2, 9, 1, 1, 0, 3, 2, 4, 0, 7})
	f.Add([]byte{1, 255, 255, 255, 255, 255, 255, 255, 127, 0, 1, 0, 0, 0, 0, 0, 0, 0, 40, 0, 3, 4, 0, 0, 1, 2})
	f.Add([]byte{7, 200, 1, 2, 3, 4, 5, 6, 7, 3, 9, 9, 9, 9, 9, 9, 9, 9, 9, 1, 8, 8, 8, 8, 8, 8, 8, 8, 8, 20, 0, 6, 255})
	// Numeric labels (mode bit 3): ascending, descending, unordered.
	f.Add([]byte{8 | 2, 5, 2, 1, 6, 3, 2, 4, 2, 3, 1, 2, 0, 1, 1, 6, 5, 1, 0, 7, 3, 1, 1, 7, 9})
	f.Add([]byte{8, 6, 3, 3, 1, 2, 3, 0, 1, 2, 5, 1, 0, 1, 0, 5, 0, 1, 1, 1, 0, 5, 2, 4, 1, 0, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		small, shape, chunk, labels, cs, offset := decodeCase(data)
		g, err := planner.NewGeometry(shape, chunk, labels)
		if err != nil {
			if small {
				t.Fatalf("small geometry rejected: %v", err)
			}
			return
		}
		for _, c := range cs {
			g.Usable(c.Target, c.Op)
		}
		e := g.Estimate(cs)
		if e.Rows < 0 || e.Rows > g.Elements() || e.Selected > e.Rows || e.Chunks > g.NumChunks() {
			t.Fatalf("estimate %+v for %d elements", e, g.Elements())
		}
		var p planner.Plan
		if err := p.Reset(g, cs); err != nil {
			t.Fatal(err)
		}
		if p.SelectedRows() < 0 || p.SelectedRows() > p.EstimatedRows() || p.EstimatedRows() > g.Elements() {
			t.Fatalf("selected %d estimated %d of %d", p.SelectedRows(), p.EstimatedRows(), g.Elements())
		}
		// Further terms never select more than the plan's box.
		if pe, box := p.Estimate(cs), p.Estimate(nil); pe.Rows < 0 || pe.Rows > g.Elements() || pe.Selected > pe.Rows ||
			pe.Chunks > g.NumChunks() || pe.Selected > box.Selected || box.Selected < p.SelectedRows() {
			t.Fatalf("plan estimate %+v (box %+v) for %d elements, plan selects %d", pe, box, g.Elements(), p.SelectedRows())
		}
		if small {
			checkPlan(t, g, &p, shape, chunk, labels, cs, offset)
			return
		}
		it := p.Iter()
		for i := 0; i < 64 && it.Next(); i++ {
			if c := it.Chunk(); c.Selected <= 0 {
				t.Fatalf("chunk %v with %d selected", c.Coords, c.Selected)
			}
		}
		it.Reset(&p)
		if rest, ok := it.NextSkip(offset); ok && (rest < 0 || rest >= it.Chunk().Selected) {
			t.Fatalf("NextSkip(%d): rest %d of %d", offset, rest, it.Chunk().Selected)
		}
	})
}
