package vtab

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// metaKind describes one metadata table: its columns, whether it has a
// "dataset" column (column 0) whose equality is pushed down, and a row
// generator. rows calls emit.row once per row; only is nil for all
// datasets.
type metaKind struct {
	columns   string
	byDataset bool
	rows      func(src *scan.Source, only *scan.Array, emit *rowSink)
}

var metaKinds = map[string]*metaKind{
	"tet_file": {
		columns: "path TEXT, size INTEGER, layout_version INTEGER, dataset_count INTEGER, footer TEXT, " +
			"memory_budget_bps INTEGER, memory_budget_bytes INTEGER, tool TEXT, library_version TEXT, created_at TEXT, format TEXT",
		rows: func(src *scan.Source, _ *scan.Array, emit *rowSink) {
			m := src.Attrs()
			var size, layout, footer, bps, bytes sqlitevt.Value // NULL for a format that does not describe itself
			if d, ok := src.Underlying().(array.Describer); ok {
				desc := d.Describe()
				size, layout, footer, bps, bytes = desc.Size, desc.LayoutVersion, desc.Footer, desc.MemoryBudgetBPS, desc.MemoryBudgetBytes
			}
			emit.row(src.GivenPath(), size, layout, int64(len(src.Arrays())), footer, bps, bytes,
				nullable(m, "tool"), nullable(m, "library_version"), nullable(m, "created_at"), src.Format().Name())
		},
	},
	"tet_datasets": {
		columns: "name TEXT, dtype TEXT, ndim INTEGER, shape TEXT, chunk_shape TEXT, grid_shape TEXT, " +
			"dim_names TEXT, element_count INTEGER, chunk_count INTEGER, raw_bytes INTEGER, stored_bytes INTEGER, attrs TEXT, " +
			"table_name TEXT, agg_table TEXT, format TEXT",
		byDataset: true,
		rows: func(src *scan.Source, only *scan.Array, emit *rowSink) {
			// The tables SetupSQL names for each dataset (see TableNames).
			tables := map[*scan.Array]DatasetTables{}
			for _, t := range TableNames(src) {
				tables[t.Dataset] = t
			}
			eachDataset(func(a *scan.Array, emit *rowSink) {
				ds := a.FileInfo()
				names := make([]string, ds.Rank())
				for i := range names {
					names[i] = dimName(ds, i)
				}
				attrs := ds.Attrs
				if attrs == nil {
					attrs = map[string]string{}
				}
				tot, err := a.Totals(emit.sess)
				if err != nil {
					emit.fail(err)
					return
				}
				emit.row(ds.Name, ds.DType.String(), int64(ds.Rank()), jsonText(ds.Shape), jsonText(ds.ChunkShape),
					jsonText(ds.Grid()), jsonText(names), ds.Elements(), ds.ChunkCount(), tot.RawBytes, tot.StoredBytes,
					jsonText(attrs), tables[a].Cells, nullIfEmpty(tables[a].Agg), src.Format().Name())
			})(src, only, emit)
		},
	},
	"tet_dims": {
		columns:   "dataset TEXT, axis INTEGER, name TEXT, size INTEGER, chunk_size INTEGER, labeled INTEGER",
		byDataset: true,
		rows: eachDataset(func(a *scan.Array, emit *rowSink) {
			ds := a.FileInfo()
			cols := cellsColumns(ds)
			for i := 0; i < ds.Rank(); i++ {
				labeled := int64(0)
				if ds.Labels != nil && ds.Labels[i] != nil {
					labeled = 1
				}
				emit.row(ds.Name, int64(i), cols[i], ds.Shape[i], ds.ChunkShape[i], labeled)
			}
		}),
	},
	"tet_chunks": {
		columns: "dataset TEXT, chunk INTEGER, coords TEXT, start TEXT, extent TEXT, payload_offset INTEGER, " +
			"raw_byte_len INTEGER, stored_byte_len INTEGER, codec TEXT",
		byDataset: true,
		rows: eachDataset(func(a *scan.Array, emit *rowSink) {
			ds := a.FileInfo()
			r := ds.Rank()
			coords, start, extent := make([]int64, r), make([]int64, r), make([]int64, r)
			emit.fail(a.EachStored(emit.sess, func(c array.ChunkInfo) bool {
				ds.ChunkCoords(c.ID, coords)
				ds.ChunkBox(c.ID, start, extent)
				emit.row(ds.Name, c.ID, jsonText(coords), jsonText(start), jsonText(extent),
					offsetValue(c.Offset), c.RawBytes, c.StoredBytes, c.Codec)
				return true
			}))
		}),
	},
	"tet_history": {
		columns: "seq INTEGER, op TEXT, source TEXT, at TEXT, parents TEXT, params TEXT",
		rows: func(src *scan.Source, _ *scan.Array, emit *rowSink) {
			hs, _ := src.Underlying().(array.Historian)
			if hs == nil {
				return
			}
			for i, h := range hs.History() {
				parents, params := []string{}, map[string]string{}
				if h.Parents != nil {
					parents = h.Parents
				}
				if h.Params != nil {
					params = h.Params
				}
				emit.row(int64(i), h.Op, h.Source, h.At, jsonText(parents), jsonText(params))
			}
		},
	},
	"tet_attrs": {
		columns:   "dataset TEXT, key TEXT, value TEXT",
		byDataset: true,
		rows: func(src *scan.Source, only *scan.Array, emit *rowSink) {
			if only == nil {
				m := src.Attrs()
				for _, k := range sortedKeys(m) {
					emit.row(nil, k, m[k])
				}
			}
			eachDataset(func(a *scan.Array, emit *rowSink) {
				ds := a.FileInfo()
				for _, k := range sortedKeys(ds.Attrs) {
					emit.row(ds.Name, k, ds.Attrs[k])
				}
			})(src, only, emit)
		},
	},
	"tet_coords": {
		columns:   "dataset TEXT, dim TEXT, idx INTEGER, label TEXT",
		byDataset: true,
		rows: eachDataset(func(a *scan.Array, emit *rowSink) {
			ds := a.FileInfo()
			cols := cellsColumns(ds)
			for i, labels := range ds.Labels {
				for j, l := range labels {
					emit.row(ds.Name, cols[i], int64(j), l)
				}
			}
		}),
	},
}

// MetaTables lists the metadata table names in a stable order.
var MetaTables = []string{"tet_file", "tet_datasets", "tet_dims", "tet_chunks", "tet_history", "tet_attrs", "tet_coords"}

// eachDataset runs fn for every dataset, or only for one, numbering each
// dataset's rows in its own rowid block (see rowSink).
func eachDataset(fn func(a *scan.Array, emit *rowSink)) func(*scan.Source, *scan.Array, *rowSink) {
	return func(src *scan.Source, only *scan.Array, emit *rowSink) {
		for i, a := range src.Arrays() {
			if only == nil || a == only {
				emit.block(int64(i) + 1)
				fn(a, emit)
			}
		}
	}
}

// rowSink collects a metadata table's rows with their rowids. A rowid
// must name the same row in every scan, whatever was pushed down (SQLite's
// multi-index OR plan de-duplicates by rowid across scans): rows about
// the file are numbered in block 0, rows about the i-th dataset in block
// i+1, as block<<40 + position within the block.
type rowSink struct {
	rows [][]sqlitevt.Value
	ids  []int64
	blk  int64
	n    int64

	// countOnly sinks keep nothing but the number of rows and their
	// estimated memory (metaRowBytes), so a table is sized before it is
	// built.
	countOnly    bool
	total, bytes int64

	sess *scan.Session // whose call a walk of a chunk grid watches
	err  error         // the first failure (an interrupted walk)
}

func (s *rowSink) block(b int64) { s.blk, s.n = b, 0 }

func (s *rowSink) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

func (s *rowSink) row(v ...sqlitevt.Value) {
	if s.countOnly {
		s.total, s.bytes = s.total+1, s.bytes+metaRowBytes(v)
		return
	}
	s.rows = append(s.rows, v)
	s.ids = append(s.ids, s.blk<<40|s.n)
	s.n++
}

func nullable(m map[string]string, k string) sqlitevt.Value {
	if v, ok := m[k]; ok {
		return v
	}
	return nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// metaTable serves one metadata table from rows generated at Filter time.
type metaTable struct {
	readOnly
	h         *scan.Handle
	kind      *metaKind
	name      string
	qualified string
	session   *Session
}

// newMeta declares a metadata table of kind k (a fixed one, or a
// format table: see formatKind).
func newMeta(ctx sqlitevt.Context, a tableArgs, h *scan.Handle, k *metaKind) (*metaTable, error) {
	if err := ctx.Declare("CREATE TABLE x(" + k.columns + ")"); err != nil {
		return nil, fmt.Errorf("tet: table %q: %w", a.table, err)
	}
	return &metaTable{readOnly: readOnly{a.table}, h: h, kind: k, name: a.kind,
		qualified: a.schema + "." + a.table, session: a.session}, nil
}

// BestIndex pushes down "dataset = ?" under the BINARY collation where
// the table has that column (a name compares byte for byte).
func (t *metaTable) BestIndex(info *sqlitevt.IndexInfo) error {
	panicPoint("xBestIndex")
	info.EstimatedCost, info.EstimatedRows = 1000, 1000
	if !t.kind.byDataset {
		return nil
	}
	for i := range info.Constraints {
		c := &info.Constraints[i]
		if c.Usable && c.Column == 0 && c.Op == sqlitevt.OpEQ && isBinary(c) {
			// Not omitted: SQLite re-checks, which decides the numbers
			// and blobs Filter cannot (see metaCursor.Filter).
			c.ArgIndex = 0
			info.IdxNum = 1
			info.EstimatedCost, info.EstimatedRows = 10, 10
			return nil
		}
	}
	return nil
}

// Open implements sqlitevt.Table.
func (t *metaTable) Open() (sqlitevt.Cursor, error) {
	panicPoint("xOpen")
	return &metaCursor{t: t}, nil
}

// Disconnect releases the table's file handle.
func (t *metaTable) Disconnect() error {
	panicPoint("xDisconnect")
	t.session.tableEvent()
	return t.h.Close()
}

// Destroy is Disconnect: dropping the table never touches the file.
func (t *metaTable) Destroy() error { return t.Disconnect() }

// Panicked implements sqlitevt.PanicHandler. Unlike a cells or
// aggregate table, it keeps nothing on the session: SQLite reports the
// error itself.
func (t *metaTable) Panicked(where string, p any) error { return internalError("", where, p) }

type metaCursor struct {
	t    *metaTable
	out  rowSink
	i    int
	held int64 // the rows' memory, held against the session's limit
}

func (c *metaCursor) Filter(idxNum int, _ string, vals []sqlitevt.Value) error {
	panicPoint("xFilter")
	c.out, c.i = rowSink{}, 0
	c.t.session.engine().Release(&c.held)
	src := c.t.h.Source()
	var only *scan.Array
	if idxNum == 1 && len(vals) == 1 {
		switch name := vals[0].(type) {
		case nil:
			return nil // NULL equals nothing
		case string:
			ds, err := src.Array(name) // byte for byte: BINARY
			if err != nil {
				return nil
			}
			only = ds
		}
		// A number may equal a name under the affinity of the other
		// operand, which is not known here: produce every row and let
		// SQLite (which re-checks the term) decide.
	}
	// The rows are built whole: count their memory first (metaRowBytes)
	// and refuse a table of a file whose index or labels would need more
	// than the memory limit.
	sess := c.t.session.engine()
	count := rowSink{countOnly: true, sess: sess}
	c.t.kind.rows(src, only, &count)
	if count.err != nil {
		return fmt.Errorf("tet: %s: %w", c.t.qualified, count.err)
	}
	b := sess.Budget(c.t.qualified)
	if err := b.Need("listing", count.total, "rows", count.bytes/max(count.total, 1)+1); err != nil {
		c.t.session.setErr(err)
		return err
	}
	c.held = b.Hold()
	c.out = rowSink{rows: make([][]sqlitevt.Value, 0, count.total), ids: make([]int64, 0, count.total), sess: sess}
	c.t.kind.rows(src, only, &c.out)
	if c.out.err != nil {
		return fmt.Errorf("tet: %s: %w", c.t.qualified, c.out.err)
	}
	return nil
}

// metaRowBytes estimates the memory of one materialised row: its slice
// and interface values, and the strings they box.
func metaRowBytes(v []sqlitevt.Value) int64 {
	n := int64(24 + 16*len(v))
	for _, x := range v {
		switch x := x.(type) {
		case string:
			n += 16 + int64(len(x))
		case []byte:
			n += 24 + int64(len(x))
		case int64, float64:
			n += 8
		}
	}
	return n
}

func (c *metaCursor) Next() error { c.i++; return nil }
func (c *metaCursor) Eof() bool   { return c.i >= len(c.out.rows) }
func (c *metaCursor) Column(r *sqlitevt.Result, col int) error {
	r.Value(c.out.rows[c.i][col])
	return nil
}
func (c *metaCursor) Rowid() (int64, error) { return c.out.ids[c.i], nil }
func (c *metaCursor) Close() error          { c.t.session.engine().Release(&c.held); return nil }

// offsetValue is a chunk's payload offset, NULL when its bytes are not
// one span of the file (a special chunk, a sparse frame's chunk file).
func offsetValue(off int64) sqlitevt.Value {
	if off < 0 {
		return nil
	}
	return off
}

// nullIfEmpty is s, or NULL for "" (a table that was not created).
func nullIfEmpty(s string) sqlitevt.Value {
	if s == "" {
		return nil
	}
	return s
}
