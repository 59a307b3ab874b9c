package vtab

import (
	"errors"
	"fmt"

	"github.com/tetsql/tetsql/internal/colbatch"
)

// A many-file cells cursor hands its rows to an armed exporter (see
// export.go) as one scan over its files: each file's inner cursor fills
// the dataset's columns, the file and hive columns are the file's values,
// and files are opened, skipped (on_error=skip) and given back exactly as
// Next does.

// export hands the started scan to an armed exporter, if any.
func (c *manyCells) export() error {
	taken, err := c.t.args.session.runExport(c)
	if taken {
		c.closeFile()
		c.done = true
	}
	return err
}

func (c *manyCells) filterPlan() (int, string) { return c.idxNum, c.idxStr }

func (c *manyCells) columns() int { return c.t.nfix + c.t.tmpl.cells.valueCol + 1 }

// kind is the template file's kind of each dataset column; another file
// whose numeric labels are INTEGER where the template's are REAL has them
// converted (fill).
func (c *manyCells) kind(col int) colbatch.Kind {
	if col < c.t.nfix {
		return colbatch.Text
	}
	return c.t.tmpl.cells.exportKind(col - c.t.nfix)
}

// fill is ExportScan.Fill over the files, columns checked.
func (c *manyCells) fill(dst []colbatch.Vec, cols []int, max int) (int, error) {
	var (
		inner     = make([]colbatch.Vec, 0, len(cols))
		innerCols = make([]int, 0, len(cols))
		scratch   = make([]colbatch.Vec, len(cols)) // a file's INTEGER labels for a REAL column
	)
	n := 0
	for n < max && !c.done {
		// The dataset's columns fill the destination vectors themselves
		// (moved into inner and back), or scratch ones to convert.
		inner, innerCols = inner[:0], innerCols[:0]
		for j, col := range cols {
			if col < c.t.nfix {
				continue
			}
			ic := col - c.t.nfix
			switch fk := c.cc.kind(ic); {
			case fk == dst[j].Kind:
				inner = append(inner, dst[j])
			case fk == colbatch.Int64 && dst[j].Kind == colbatch.Float64:
				scratch[j].Kind = fk
				scratch[j].Reset()
				inner = append(inner, scratch[j])
			default:
				return n, fmt.Errorf("tet: %s: %s: column %d holds %s values where the first files' hold %s: "+
					"CAST it to one type", c.t.qualified, c.cur.path, col, fk, dst[j].Kind)
			}
			innerCols = append(innerCols, ic)
		}
		m, err := c.cc.fill(inner, innerCols, max-n)
		k := 0
		for j, col := range cols {
			if col >= c.t.nfix {
				if inner[k].Kind == dst[j].Kind {
					dst[j] = inner[k]
				} else if cerr := intsAsReals(&dst[j], &inner[k]); cerr != nil {
					return n, fmt.Errorf("tet: %s: %s: column %d: %w", c.t.qualified, c.cur.path, col, cerr)
				} else {
					scratch[j] = inner[k]
				}
				k++
				continue
			}
			v := c.t.fileValue(c.fi, col)
			for range m {
				if v != nil {
					dst[j].AppendText(*v)
				} else {
					dst[j].AppendNull()
				}
			}
		}
		n += m
		c.fileRows += int64(m) // counted from 1 at the file's start, as Next counts
		var cerr *ColumnError
		if errors.As(err, &cerr) { // as Column: the statement fails
			return n, fmt.Errorf("tet: %s: %s: %w", c.t.qualified, c.cur.path, cerr.Err)
		}
		if err != nil {
			note := ""
			if r := c.fileRows - 1; r > 0 {
				note = fmt.Sprintf(" (the rest of the file, after %d rows already returned)", r)
			}
			if err := c.t.fileError(c.fi, err, &c.stats, note); err != nil {
				return n, err
			}
			c.closeFile()
		}
		if err := c.advance(); err != nil {
			return n, err
		}
	}
	return n, nil
}

// intsAsReals appends the Int64 values of src to the Float64 dst, as
// SQLite compares an INTEGER with a REAL: exact below 2^53.
func intsAsReals(dst, src *colbatch.Vec) error {
	for i, x := range src.I64 {
		switch {
		case src.Null[i]:
			dst.AppendNull()
		case x < -1<<53 || x > 1<<53:
			return fmt.Errorf("INTEGER label %d has no exact REAL", x)
		default:
			dst.AppendFloat64(float64(x))
		}
	}
	return nil
}
