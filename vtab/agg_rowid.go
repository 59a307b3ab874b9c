package vtab

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/tetsql/tetsql/internal/scan"
)

// Rowids of aggregate rows.
//
// SQLite answers "a OR b" over indexable terms by running the table once
// per term and dropping rows whose rowid it has already seen (the
// multi-index OR plan). A row's rowid must therefore say which row it
// is, identically in every Filter of the cursor: two rows share a rowid
// only if they are the same row with the same values.
//
// An aggregate row is fixed by the grouped axes (keep mask), its group's
// index on each of them, and the selection on every other axis (which
// elements were folded into it; an axis pinned by "=" is a one-index
// selection). The selection of a grouped axis only decides which groups
// exist, not their values, so it is not part of the identity. Each
// distinct (keep mask, selections of the other axes) gets its own block
// of rowids, as large as the grouped axes' full grid, and a row's rowid
// is its block's base plus its group's row-major index in that grid. The
// first block starts at 0, so a plain query numbers its rows by group.
//
// An OR of terms on grouped axes thus gives exactly the groups of the
// combined condition; an OR whose terms select different elements on an
// ungrouped axis gives one row per distinct selection, never a row of one
// term in place of another's.

// maxRowidBlocks bounds the identities a cursor remembers; past it the
// map is cleared but bases keep increasing, so a rowid is never reused.
const maxRowidBlocks = 1 << 16

// rowidBlocks hands out rowid blocks by identity for one cursor.
type rowidBlocks struct {
	base map[string]int64
	next int64
	key  []byte
}

// block returns the base rowid of the identity of a Filter's rows.
// q is the q argument's bits plus one, 0 without q: rows for another q
// have other quantile values, so they are other rows.
func (b *rowidBlocks) block(keep []bool, coarse []int64, sel []scan.AxisSel, size int64, q uint64) (int64, error) {
	k := b.key[:0]
	for d, kept := range keep {
		if kept {
			k = append(k, 1)
			k = binary.AppendUvarint(k, uint64(blockOf(coarse, d)))
			continue
		}
		k = append(k, 0)
		k = binary.AppendUvarint(k, uint64(len(sel[d].Runs)))
		for _, r := range sel[d].Runs {
			k = binary.AppendVarint(k, r.Lo)
			k = binary.AppendVarint(k, r.Hi)
		}
	}
	k = binary.AppendUvarint(k, q)
	b.key = k
	if base, ok := b.base[string(k)]; ok {
		return base, nil
	}
	if b.base == nil || len(b.base) >= maxRowidBlocks {
		b.base = map[string]int64{}
	}
	if b.next > math.MaxInt64-size {
		return 0, fmt.Errorf("too many distinct selections in one statement to number the result rows")
	}
	base := b.next
	b.next += size
	b.base[string(k)] = base
	return base, nil
}

// gridSize returns the number of cells of the grouped axes' full grid
// (a coarsened axis counts its blocks).
func gridSize(shape []int64, keep []bool, coarse []int64) (int64, error) {
	n := int64(1)
	for d, kept := range keep {
		if !kept {
			continue
		}
		e := groupExtent(shape[d], coarse, d)
		if e > 0 && n > math.MaxInt64/e {
			return 0, fmt.Errorf("grouped grid too large to number its rows")
		}
		n *= e
	}
	return n, nil
}

// Rowid is the row's block base plus its group's row-major index over the
// grouped axes' full extents (see rowidBlocks).
func (c *aggCursor) Rowid() (int64, error) {
	lin := int64(0)
	for k, d := range c.kept {
		lin = lin*groupExtent(c.t.info.Shape[d], c.coarse, d) + c.groupIndex(k)
	}
	return c.rowBase + lin, nil
}
