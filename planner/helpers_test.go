package planner_test

import (
	"bytes"
	"math"
	"strconv"
	"testing"

	"github.com/tetsql/tetsql/planner"
)

// model is an independent, brute-force statement of the constraint
// semantics the planner implements, plus a SQLite-like stand-in for the
// cases the planner leaves to SQLite.
type model struct {
	shape   []int64
	labels  [][]string
	numeric []bool // per axis: numeric labels (compared by refMatch)
}

// cmpInt compares integer i with value v the way SQLite would for an
// INTEGER column (TEXT/BLOB always sort after numbers); ok=false for NULL
// and NaN, which match nothing.
func cmpInt(i int64, v any) (c int, ok bool) {
	switch x := v.(type) {
	case int64:
		return cmp64(i, x), true
	case float64:
		if math.IsNaN(x) {
			return 0, false
		}
		f := float64(i) // test shapes are far below 2^53: exact
		switch {
		case f < x:
			return -1, true
		case f > x:
			return 1, true
		}
		return 0, true
	case string, []byte:
		return -1, true
	}
	return 0, false
}

func cmp64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpLabel compares a TEXT label with v: strings byte-wise, numbers as
// their text (TEXT affinity), BLOBs after every TEXT.
func cmpLabel(s string, v any) (c int, ok bool) {
	switch x := v.(type) {
	case string:
		return bytesCmp(s, x), true
	case []byte:
		return -1, true
	case int64:
		return bytesCmp(s, strconv.FormatInt(x, 10)), true
	case float64:
		if math.IsNaN(x) {
			return 0, false
		}
		return bytesCmp(s, strconv.FormatFloat(x, 'g', -1, 64)), true
	}
	return 0, false
}

func bytesCmp(a, b string) int { return bytes.Compare([]byte(a), []byte(b)) }

func opHolds(op planner.Op, c int) bool {
	switch op {
	case planner.OpEQ:
		return c == 0
	case planner.OpLT:
		return c < 0
	case planner.OpLE:
		return c <= 0
	case planner.OpGT:
		return c > 0
	case planner.OpGE:
		return c >= 0
	}
	return true // LIMIT/OFFSET do not filter elements
}

// holds evaluates constraint c on the element at coords with rowid id.
func (m model) holds(c planner.Constraint, coords []int64, id int64) bool {
	if c.Op == planner.OpLimit || c.Op == planner.OpOffset {
		return true
	}
	var r int
	var ok bool
	switch c.Target.Kind {
	case planner.KindDim:
		r, ok = cmpInt(coords[c.Target.Axis], c.Value)
	case planner.KindRowID:
		r, ok = cmpInt(id, c.Value)
	case planner.KindLabel:
		label := m.labels[c.Target.Axis][coords[c.Target.Axis]]
		if m.numeric != nil && m.numeric[c.Target.Axis] {
			switch c.Value.(type) {
			case string, []byte:
				return true // not a number: restricts nothing, never honoured
			}
			return refMatch(label, c.Op, c.Value)
		}
		r, ok = cmpLabel(label, c.Value)
	}
	return ok && opHolds(c.Op, r)
}

// forEach calls f for every element in row-major order.
func forEach(shape []int64, f func(coords []int64, id int64)) {
	total := int64(1)
	for _, n := range shape {
		total *= n
	}
	coords := make([]int64, len(shape))
	for id := range total {
		if err := planner.Unravel(shape, id, coords); err != nil {
			panic(err)
		}
		f(coords, id)
	}
}

// visit iterates p and returns the rowids it selects, in emission order,
// checking the per-chunk invariants on the way.
// starts maps each visited chunk's ID to the index in ids of its first row.
func visit(t testing.TB, g *planner.Geometry, p *planner.Plan, shape, chunk []int64) (ids []int64, starts map[int64]int, chunkRows int64) {
	t.Helper()
	rlo, rhi, filter := p.RowIDFilter()
	grid := make([]int64, len(shape))
	for d := range shape {
		grid[d] = g.GridSize(d)
	}
	lastID := int64(-1)
	starts = map[int64]int{}
	it := p.Iter()
	for it.Next() {
		c := it.Chunk()
		starts[c.ID] = len(ids)
		if c.ID <= lastID {
			t.Fatalf("chunk ids not increasing: %d after %d", c.ID, lastID)
		}
		lastID = c.ID
		if id, err := planner.Ravel(grid, c.Coords); err != nil || id != c.ID {
			t.Fatalf("chunk %v: ID %d, Ravel gives %d (%v)", c.Coords, c.ID, id, err)
		}
		size := int64(1)
		for d := range shape {
			if c.Start[d] != c.Coords[d]*chunk[d] || c.Extent[d] != min(chunk[d], shape[d]-c.Start[d]) {
				t.Fatalf("chunk %v: start %v extent %v", c.Coords, c.Start, c.Extent)
			}
			if c.Lo[d] < 0 || c.Lo[d] >= c.Hi[d] || c.Hi[d] > c.Extent[d] {
				t.Fatalf("chunk %v: bad sub-box %v..%v of extent %v", c.Coords, c.Lo, c.Hi, c.Extent)
			}
			size *= c.Extent[d]
		}
		chunkRows += size
		n := int64(0)
		local := make([]int64, len(shape))
		copy(local, c.Lo)
		global := make([]int64, len(shape))
		for {
			for d := range shape {
				global[d] = c.Start[d] + local[d]
			}
			id, err := g.RowID(global)
			if err != nil {
				t.Fatal(err)
			}
			if !filter || (id >= rlo && id < rhi) {
				ids = append(ids, id)
				n++
			}
			d := len(shape) - 1
			for ; d >= 0; d-- {
				local[d]++
				if local[d] < c.Hi[d] {
					break
				}
				local[d] = c.Lo[d]
			}
			if d < 0 {
				break
			}
		}
		if n != c.Selected || n == 0 {
			t.Fatalf("chunk %v: Selected %d, counted %d", c.Coords, c.Selected, n)
		}
	}
	return ids, starts, chunkRows
}
