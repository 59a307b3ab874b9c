package planner_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tetsql/tetsql/planner"
)

// randomCase draws a geometry (rank 1–4, edge chunks, sometimes labels,
// rarely an empty axis) and a random constraint set over it.
func randomCase(r *rand.Rand) (shape, chunk []int64, labels [][]string, cs []planner.Constraint) {
	rank := 1 + r.IntN(4)
	shape, chunk = make([]int64, rank), make([]int64, rank)
	labels = make([][]string, rank)
	for d := range rank {
		shape[d] = 1 + r.Int64N(7)
		if r.IntN(40) == 0 {
			shape[d] = 0
		}
		chunk[d] = 1 + r.Int64N(shape[d]+2)
		if r.IntN(2) == 0 {
			labels[d] = randomLabels(r, int(shape[d]))
		}
	}
	for range r.IntN(6) {
		cs = append(cs, randomConstraint(r, shape, labels))
	}
	if r.IntN(4) == 0 { // a two-sided rowid range, where the rowid filter matters
		total := int64(1)
		for _, n := range shape {
			total *= n
		}
		a := r.Int64N(total + 1)
		b := a + r.Int64N(total+1-a)
		cs = append(cs[:min(len(cs), 1)],
			planner.Constraint{Target: planner.RowID(), Op: planner.Op(4 + r.IntN(2)), Value: a},
			planner.Constraint{Target: planner.RowID(), Op: planner.Op(2 + r.IntN(2)), Value: float64(b) + 0.5*float64(r.IntN(2))})
	}
	return shape, chunk, labels, cs
}

func randomLabels(r *rand.Rand, n int) []string {
	l := make([]string, n)
	switch r.IntN(3) {
	case 0: // strictly ascending, with gaps
		v := 0
		for i := range l {
			v += 1 + r.IntN(2)
			l[i] = fmt.Sprintf("L%02d", v)
		}
	case 1: // unique, shuffled
		for i := range l {
			l[i] = fmt.Sprintf("L%02d", 2*i)
		}
		r.Shuffle(n, func(i, j int) { l[i], l[j] = l[j], l[i] })
	default: // duplicates likely
		for i := range l {
			l[i] = fmt.Sprintf("L%02d", 2*r.IntN(3))
		}
	}
	return l
}

var specials = []any{
	math.Inf(1), math.Inf(-1), math.NaN(), 1e300, -1e300, 0x1p63, -0x1p63,
	int64(math.MaxInt64), int64(math.MinInt64), nil, "3", []byte("3"), true,
}

func randomNumber(r *rand.Rand, n int64) any {
	i := r.Int64N(n+5) - 2
	switch k := r.IntN(20); {
	case k < 10:
		return i
	case k < 13:
		return float64(i)
	case k < 17:
		return float64(i) + []float64{-0.5, 0.5, 0.25, -0.999}[r.IntN(4)]
	default:
		return specials[r.IntN(len(specials))]
	}
}

func randomConstraint(r *rand.Rand, shape []int64, labels [][]string) planner.Constraint {
	op := planner.Op(1 + r.IntN(5))
	d := r.IntN(len(shape))
	total := int64(1)
	for _, n := range shape {
		total *= n
	}
	switch k := r.IntN(20); {
	case k < 3:
		return planner.Constraint{Target: planner.RowID(), Op: op, Value: randomNumber(r, total)}
	case k < 4:
		return planner.Constraint{Op: planner.Op(6 + r.IntN(2)), Value: randomNumber(r, total)}
	case k < 9 && labels[d] != nil:
		var v any = fmt.Sprintf("L%02d", r.IntN(16))
		if r.IntN(2) == 0 && len(labels[d]) > 0 {
			v = labels[d][r.IntN(len(labels[d]))]
		}
		switch r.IntN(10) {
		case 0:
			v = randomNumber(r, 5)
		case 1:
			v = []byte(v.(string))
		case 2:
			v = v.(string) + "x"
		case 3:
			v = nil
		}
		return planner.Constraint{Target: planner.Label(d), Op: op, Value: v}
	}
	return planner.Constraint{Target: planner.Dim(d), Op: op, Value: randomNumber(r, shape[d])}
}

func TestDifferential(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	var p planner.Plan // reused across cases: Reset must not leak state
	for i := range 5000 {
		shape, chunk, labels, cs := randomCase(r)
		g, err := planner.NewGeometry(shape, chunk, labels)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Reset(g, cs); err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkPlan(t, g, &p, shape, chunk, labels, cs, r.Int64N(40)) })
		if t.Failed() {
			t.Fatalf("case %d: shape %v chunk %v labels %q constraints %+v", i, shape, chunk, labels, cs)
		}
	}
}

// checkPlan compares p against brute force over every element and chunk.
func checkPlan(t *testing.T, g *planner.Geometry, p *planner.Plan, shape, chunk []int64, labels [][]string, cs []planner.Constraint, offset int64) {
	m := model{shape: shape, labels: labels, numeric: make([]bool, len(shape))}
	for d := range shape {
		lt := g.LabelType(d)
		m.numeric[d] = lt == planner.LabelInteger || lt == planner.LabelReal
	}
	all, honoured := map[int64]bool{}, map[int64]bool{}
	forEach(shape, func(coords []int64, id int64) {
		okAll, okH := true, true
		for i, c := range cs {
			h := m.holds(c, coords, id)
			okAll = okAll && h
			okH = okH && (h || !p.Honoured(i))
		}
		if okAll {
			all[id] = true
		}
		if okH {
			honoured[id] = true
		}
	})
	ids, starts, chunkRows := visit(t, g, p, shape, chunk)
	got := map[int64]bool{}
	for _, id := range ids {
		if got[id] {
			t.Fatalf("rowid %d emitted twice", id)
		}
		got[id] = true
		if !honoured[id] {
			t.Fatalf("rowid %d selected but violates an honoured constraint", id)
		}
	}
	for id := range all {
		if !got[id] {
			t.Fatalf("rowid %d matches every constraint but was not selected", id)
		}
	}
	if p.AllHonoured() && len(got) != len(all) {
		t.Fatalf("all honoured but %d selected, %d match", len(got), len(all))
	}
	if int64(len(ids)) != p.SelectedRows() {
		t.Fatalf("SelectedRows %d, iterated %d", p.SelectedRows(), len(ids))
	}
	if p.Empty() != (len(ids) == 0) {
		t.Fatalf("Empty() = %v with %d rows", p.Empty(), len(ids))
	}
	checkBox(t, g, p, ids)
	checkChunks(t, g, p, shape, chunk, chunkRows, len(starts))
	checkSkip(t, p, ids, starts, offset)
}

// checkBox checks that the plan's box is exactly the bounding box of the
// selected elements.
func checkBox(t *testing.T, g *planner.Geometry, p *planner.Plan, ids []int64) {
	if len(ids) == 0 {
		return
	}
	r := g.Rank()
	lo, hi, c := make([]int64, r), make([]int64, r), make([]int64, r)
	for d := range r {
		lo[d], hi[d] = math.MaxInt64, -1
	}
	for _, id := range ids {
		if err := g.ElementCoords(id, c); err != nil {
			t.Fatal(err)
		}
		for d := range r {
			lo[d], hi[d] = min(lo[d], c[d]), max(hi[d], c[d]+1)
		}
	}
	for d := range r {
		if blo, bhi := p.Interval(d); blo != lo[d] || bhi != hi[d] {
			t.Fatalf("axis %d: box [%d,%d), bounding box of the selection [%d,%d)", d, blo, bhi, lo[d], hi[d])
		}
	}
}

// checkChunks recomputes the candidate chunks (intersecting the box, and
// overlapping the rowid range by min/max rowid) by brute force.
func checkChunks(t *testing.T, g *planner.Geometry, p *planner.Plan, shape, chunk []int64, chunkRows int64, chunks int) {
	rlo, rhi, filter := p.RowIDFilter()
	grid := make([]int64, len(shape))
	for d := range shape {
		grid[d] = g.GridSize(d)
	}
	var want, wantN int64
	lo, hi := make([]int64, len(shape)), make([]int64, len(shape))
	forEach(grid, func(c []int64, _ int64) {
		size := int64(1)
		for d := range shape {
			blo, bhi := p.Interval(d)
			s, e := c[d]*chunk[d], min((c[d]+1)*chunk[d], shape[d])
			lo[d], hi[d] = max(s, blo), min(e, bhi)-1
			if lo[d] > hi[d] {
				return
			}
			clo, chi := p.ChunkRange(d)
			if c[d] < clo || c[d] >= chi {
				t.Fatalf("chunk %v intersects the box but is outside ChunkRange", c)
			}
			size *= e - s
		}
		first, _ := g.RowID(lo)
		last, _ := g.RowID(hi)
		if filter && (last < rlo || first >= rhi) {
			return
		}
		want += size
		wantN++
	})
	if p.EstimatedRows() != want || p.ChunkCount() != wantN {
		t.Fatalf("EstimatedRows %d ChunkCount %d, brute force %d in %d chunks", p.EstimatedRows(), p.ChunkCount(), want, wantN)
	}
	if !filter && (chunkRows != want || int64(chunks) != wantN) {
		t.Fatalf("iterated %d rows in %d chunks, EstimatedRows %d in %d", chunkRows, chunks, want, wantN)
	}
	if filter && (chunkRows > want || int64(chunks) > wantN) {
		t.Fatalf("iterated %d rows in %d chunks, more than EstimatedRows %d in %d", chunkRows, chunks, want, wantN)
	}
}

// checkSkip checks NextSkip against dropping the first offset rows of the
// full emission order.
func checkSkip(t *testing.T, p *planner.Plan, ids []int64, starts map[int64]int, offset int64) {
	it := p.Iter()
	rest, ok := it.NextSkip(offset)
	offset = max(offset, 0) // a negative offset counts as 0
	var seq []int64
	first := true
	for ok {
		c := it.Chunk()
		s, seen := starts[c.ID]
		if !seen {
			t.Fatalf("NextSkip(%d) stopped on chunk %d that Next never yields", offset, c.ID)
		}
		if first && (int64(s)+rest != offset || rest >= c.Selected) {
			t.Fatalf("NextSkip(%d): chunk starting at row %d, rest %d, selected %d", offset, s, rest, c.Selected)
		}
		first = false
		seq = append(seq, ids[s+int(rest):s+int(c.Selected)]...)
		rest, ok = 0, it.Next()
	}
	if want := ids[min(int(offset), len(ids)):]; !slices.Equal(seq, want) {
		t.Fatalf("NextSkip(%d): got %v, want %v", offset, seq, want)
	}
	if first && offset < int64(len(ids)) {
		t.Fatalf("NextSkip(%d) found no chunk among %d rows", offset, len(ids))
	}
}
