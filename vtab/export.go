package vtab

import (
	"fmt"
	"math"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/colbatch"
	"github.com/tetsql/tetsql/planner"
)

// An exporter that has checked, from the statement's compiled program,
// that SQLite would pass every row of one cells cursor through unchanged
// (a plain projection, every WHERE term consumed by the table) arms the
// session with ArmExport before the statement's first step. The first
// cells cursor of the session to start a scan then hands that scan to
// the exporter from inside its Filter, and reports no rows to SQLite:
// the rows reach the exporter column by column, without SQLite's per-row
// work, database/sql's and value boxing. A cursor that cannot (a top-k,
// one file of a many-file table) leaves the hook armed and returns its
// rows to SQLite as always, so the exporter falls back to reading them.

// ExportFunc receives an armed session's scan. It either takes the rows
// (taken: SQLite then sees none; its error fails the statement) or
// declines them before reading any (they go to SQLite as always).
type ExportFunc func(*ExportScan) (taken bool, err error)

// ArmExport makes fn receive the next cells scan started on the session
// (see above). DisarmExport must follow the statement's first step.
func (s *Session) ArmExport(fn ExportFunc) { s.export, s.exportUsed = fn, false }

// DisarmExport removes the hook and reports whether a scan took it.
func (s *Session) DisarmExport() (used bool) {
	used = s.exportUsed
	s.export, s.exportUsed = nil, false
	return used
}

// takeExport returns the armed hook, once.
func (s *Session) takeExport() ExportFunc {
	if s == nil || s.export == nil {
		return nil
	}
	fn := s.export
	s.export = nil
	return fn
}

// export hands the started scan to an armed exporter, if any, and then
// reports the end of rows to SQLite.
func (c *cellsCursor) export() error {
	if c.topk || c.t.quiet {
		return nil
	}
	taken, err := c.t.session.runExport(c)
	c.drained = taken
	return err
}

// runExport hands src to the armed exporter, if any, and reports
// whether it took the rows.
func (s *Session) runExport(src exportSource) (bool, error) {
	fn := s.takeExport()
	if fn == nil {
		return false, nil
	}
	taken, err := fn(&ExportScan{src: src})
	s.exportUsed = taken
	return taken, err
}

// exportSource is a cursor whose rows an exporter can take: a cells
// cursor, or a many-file table's.
type exportSource interface {
	filterPlan() (idxNum int, idxStr string)
	columns() int
	kind(col int) colbatch.Kind
	fill(dst []colbatch.Vec, cols []int, max int) (int, error)
}

// ExportScan is a started scan handed to an exporter: its rows, column
// by column. It is valid only during the ExportFunc call.
type ExportScan struct {
	src exportSource
}

// Plan is the idxNum and idxStr the cursor's Filter received.
func (e *ExportScan) Plan() (idxNum int, idxStr string) { return e.src.filterPlan() }

// Kind is the colbatch kind the values of table column col are held in:
// Int64 for dims and INTEGER labels, Float64 for REAL labels and f64
// values, Text for TEXT labels (and a many-file table's file and hive
// columns), Float32 for f16/f32 values, Int64 or Uint64 for integer
// values. NaN values are NULL.
func (e *ExportScan) Kind(col int) colbatch.Kind { return e.src.kind(col) }

// Fill appends up to max rows to dst, dst[j] receiving table column
// cols[j] (its Kind set by the caller), and returns how many it added: 0
// at the end of the scan. A read error of the scan is returned.
func (e *ExportScan) Fill(dst []colbatch.Vec, cols []int, max int) (int, error) {
	if len(dst) != len(cols) {
		return 0, fmt.Errorf("tet: export of %d columns into %d vectors", len(cols), len(dst))
	}
	for j, col := range cols {
		if col < 0 || col >= e.src.columns() {
			return 0, fmt.Errorf("tet: export: no column %d", col)
		}
		if k := e.src.kind(col); dst[j].Kind != k {
			return 0, fmt.Errorf("tet: export: column %d is %s, not %s", col, k, dst[j].Kind)
		}
	}
	return e.src.fill(dst, cols, max)
}

func (c *cellsCursor) filterPlan() (int, string) { return c.idxNum, c.spec }

func (c *cellsCursor) columns() int { return c.t.valueCol + 1 }

func (c *cellsCursor) kind(col int) colbatch.Kind { return c.t.exportKind(col) }

// exportKind is the colbatch kind of column col's values (ExportScan.Kind).
func (t *cellsTable) exportKind(col int) colbatch.Kind {
	switch {
	case col == t.valueCol:
		switch dt := t.info.DType; dt {
		case array.F16, array.F32:
			return colbatch.Float32
		case array.F64:
			return colbatch.Float64
		case array.U64:
			return colbatch.Uint64
		}
		return colbatch.Int64
	case col >= len(t.dims):
		switch t.geom.LabelType(t.labelAxis[col-len(t.dims)]) {
		case planner.LabelInteger:
			return colbatch.Int64
		case planner.LabelReal:
			return colbatch.Float64
		}
		return colbatch.Text
	}
	return colbatch.Int64
}

// fill is ExportScan.Fill for a cells cursor, columns checked.
func (c *cellsCursor) fill(dst []colbatch.Vec, cols []int, max int) (int, error) {
	n := 0
	for n < max && !c.s.Eof() {
		if err := c.s.Err(); err != nil {
			return n, err
		}
		for j, col := range cols {
			if err := c.appendColumn(&dst[j], col); err != nil {
				// No half row: the columns before j hold this row already.
				for k := range j {
					dst[k].Truncate(dst[k].Len() - 1)
				}
				return n, &ColumnError{Err: err}
			}
		}
		n++
		if _, err := c.scanStep(); err != nil {
			return n, err
		}
	}
	return n, c.s.Err()
}

// ColumnError is a cells scan's failure to read a value of the current
// row (a file truncated while in use), which Column reports to SQLite and
// which fails the statement: a many-file scan with on_error=skip does not
// skip it, on either path.
type ColumnError struct{ Err error }

// Error is the read error's message.
func (e *ColumnError) Error() string { return e.Err.Error() }

// Unwrap returns the read error.
func (e *ColumnError) Unwrap() error { return e.Err }

// appendColumn adds column col of the current row to v, with the values
// Column gives SQLite (NaN as NULL), but a u64 as its bits.
func (c *cellsCursor) appendColumn(v *colbatch.Vec, col int) error {
	t := c.t
	switch {
	case col == t.valueCol:
		vals, i, ok := c.s.Value()
		if !ok {
			return c.s.Err()
		}
		switch dt := t.info.DType; dt {
		case array.F32, array.F16:
			if f := dt.Float64(vals, i); f == f {
				v.AppendFloat32(float32(f))
			} else {
				v.AppendNull()
			}
		case array.F64:
			if f := dt.Float64(vals, i); !math.IsNaN(f) {
				v.AppendFloat64(f)
			} else {
				v.AppendNull()
			}
		case array.U64:
			v.AppendInt64(int64(dt.Uint64(vals, i)))
		default:
			v.AppendInt64(dt.Int64(vals, i))
		}
	case col < len(t.dims):
		v.AppendInt64(c.s.Index(col))
	default:
		a := t.labelAxis[col-len(t.dims)]
		i := c.s.Index(a)
		switch t.geom.LabelType(a) {
		case planner.LabelInteger:
			v.AppendInt64(t.geom.LabelInt(a, i))
		case planner.LabelReal:
			v.AppendFloat64(t.geom.LabelReal(a, i))
		default:
			v.AppendText(t.info.Labels[a][i])
		}
	}
	return nil
}
