package vtab

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tetsql/tetsql/array"
	"github.com/tetsql/tetsql/internal/scan"
	"github.com/tetsql/tetsql/internal/sqlitevt"
)

// manyTable is a cells or aggregate table over one dataset of every file
// a glob matches (tet_many). Its columns are file, the hive keys, then
// the columns the first file's table of that kind declares. Each file is
// read through a table of its own kind made for it alone (an inner
// table: its own geometry and labels, so files may differ in shape and
// labels), opened only when a scan reaches it and closed after.
//
// The first file holding the dataset (the template) is kept open: it
// fixes the columns every other file must declare identically, and
// plans the inner part of each query (which terms the scan consumes).
// Planning with the template is sound for every file because what an
// inner table consumes depends only on its columns (the same for every
// file), except for label terms, whose exactness depends on the labels:
// those are always left for SQLite to re-check on a cells table, and an
// aggregate table evaluates them per file.
type manyTable struct {
	readOnly
	args      manyArgs
	list      manyList
	nfix      int // columns before the inner ones: file and the hive keys
	qualified string
	tmpl      *innerTable
	decl      string // the inner columns, as every file must declare them
	pool      innerPool
}

// innerTable is the table of one file of a many-file table.
type innerTable struct {
	fi    int // the file's list index, in the pool
	h     *scan.Handle
	path  string
	cells *cellsTable // one of cells and agg
	agg   *aggTable
	at    *arrayTable
	decl  string // the column declarations inside CREATE TABLE x(…)
}

// table is the inner table as SQLite would see it.
func (it *innerTable) table() sqlitevt.Table {
	if it.cells != nil {
		return it.cells
	}
	return it.agg
}

// close releases the file (not through arrayTable.release: an inner
// table is no table of the connection's schema, and counts no event).
func (it *innerTable) close() {
	if it != nil && it.h != nil {
		it.h.Close()
		it.h = nil
	}
}

// declCapture is a sqlitevt.Context that keeps the declaration.
type declCapture struct{ decl string }

func (d *declCapture) Declare(s string) error { d.decl = s; return nil }

// errNoDataset marks a file that does not hold the table's dataset.
var errNoDataset = errors.New("the file does not hold the dataset")

// openInner opens file path and makes its inner table. It fails with
// errNoDataset (wrapped) when the file does not hold the dataset.
func (t *manyTable) openInner(path string) (*innerTable, error) {
	sess := t.args.session
	h, err := sess.Registry.Open(path)
	if err != nil {
		return nil, err
	}
	if _, err := h.Source().Array(t.args.dataset); err != nil {
		h.Close()
		return nil, fmt.Errorf("%w: %w", errNoDataset, err)
	}
	a := tableArgs{schema: t.args.schema, table: t.args.table + " (" + path + ")", dataset: t.args.dataset,
		session: sess, kind: "cells"}
	it := &innerTable{h: h, path: path}
	var dc declCapture
	if t.args.agg {
		a.kind = "agg"
		it.agg, err = newAgg(&dc, a, h)
		if err == nil {
			it.at = &it.agg.arrayTable
		}
	} else {
		it.cells, err = newCells(&dc, a, h)
		if err == nil {
			it.at = &it.cells.arrayTable
		}
	}
	if err != nil {
		h.Close()
		return nil, err
	}
	it.at.quiet = true
	it.decl = strings.TrimSuffix(strings.TrimPrefix(dc.decl, "CREATE TABLE x("), ")")
	return it, nil
}

// fits checks that it declares the template's columns for the template's
// dtype: the error says the difference (the caller names the file).
func (t *manyTable) fits(it *innerTable) error {
	tm, in := t.tmpl.at.info, it.at.info
	switch {
	case in.DType != tm.DType:
		return fmt.Errorf("dataset %q has dtype %s, not %s as in %s",
			t.args.dataset, in.DType, tm.DType, t.tmpl.path)
	case strings.Join(it.at.dims, ",") != strings.Join(t.tmpl.at.dims, ","):
		return fmt.Errorf("dataset %q has dims (%s), not (%s) as in %s",
			t.args.dataset, strings.Join(it.at.dims, ", "), strings.Join(t.tmpl.at.dims, ", "), t.tmpl.path)
	case numericLabels(it.decl) != numericLabels(t.decl):
		return fmt.Errorf("dataset %q has columns (%s), not (%s) as in %s (label columns differ in type or presence)",
			t.args.dataset, it.decl, t.decl, t.tmpl.path)
	}
	return nil
}

// numericLabels is column declarations d with every INTEGER or REAL
// label column declared NUMERIC: files whose labels along an axis are
// integers in one and reals in another fit one table (a numeric label
// term is planned the same for both, and re-checked or decided per file).
func numericLabels(d string) string {
	cols := splitDecl(d)
	names := innerColumnNames(d)
	for i, c := range cols {
		if i < len(names) && strings.HasSuffix(names[i], "_label") {
			if t := c[strings.LastIndexByte(c, ' ')+1:]; t == "INTEGER" || t == "REAL" {
				cols[i] = c[:len(c)-len(t)] + "NUMERIC"
			}
		}
	}
	return strings.Join(cols, ",")
}

// connectMany makes a tet_many table.
func connectMany(ctx sqlitevt.Context, args []string, cs *connState) (sqlitevt.Table, error) {
	a, err := parseManyArgs(args)
	if err != nil {
		return nil, err
	}
	if cs != nil {
		a.session = cs.session
	}
	a.conn = cs
	if a.session == nil || a.session.Registry == nil {
		return nil, fmt.Errorf("tet: table %q: the connection has no session to open files with (see vtab.Open)", a.table)
	}
	t := &manyTable{readOnly: readOnly{a.table}, args: a, qualified: a.schema + "." + a.table}
	if t.list, err = listMany(a.session, a.pattern); err != nil {
		return nil, err
	}
	if len(t.list.files) == 0 {
		return nil, fmt.Errorf("tet: table %q: no file matches %s", a.table, a.pattern)
	}
	if err := t.findTemplate(); err != nil {
		return nil, err
	}
	t.decl = t.tmpl.decl
	cols := []string{"file TEXT"}
	taken := map[string]bool{"file": true, "rowid": true}
	for _, c := range innerColumnNames(t.decl) {
		taken[asciiLower(c)] = true
	}
	for _, k := range t.list.keys {
		if taken[asciiLower(k)] {
			t.tmpl.close()
			return nil, fmt.Errorf("tet: table %q: hive key %q in the paths of %s has the name of another column", a.table, k, a.pattern)
		}
		taken[asciiLower(k)] = true
		cols = append(cols, quoteIdent(k)+" TEXT")
	}
	t.nfix = len(cols)
	if err := ctx.Declare("CREATE TABLE x(" + strings.Join(cols, ", ") + ", " + t.decl + ")"); err != nil {
		t.tmpl.close()
		return nil, fmt.Errorf("tet: table %q: %w", a.table, err)
	}
	a.session.tableEvent()
	return t, nil
}

// manySample is how many files holding the dataset the template is
// chosen from.
const manySample = 8

// findTemplate chooses the file whose table fixes the columns: of the
// first manySample files (in list order) that hold the dataset and
// open, one of those declaring what most of them declare, the first
// such. So one odd file early in the list (a damaged footer loses the
// dim names, which the format allows reading without) is the misfit,
// not every other file. Files that do not open are left for the scans
// to report (or skip); only when none opens is that an error here.
func (t *manyTable) findTemplate() error {
	sess := t.args.session
	var sample []*innerTable
	var firstErr error
	for _, f := range t.list.files {
		if err := sess.Interrupted(); err != nil {
			closeInner(sample)
			return err
		}
		it, err := t.openInner(f.path)
		switch {
		case errors.Is(err, errNoDataset):
			continue
		case err != nil:
			if firstErr == nil {
				firstErr = fmt.Errorf("tet: table %q: %s: %w", t.args.table, f.path, err)
			}
			continue
		}
		sample = append(sample, it)
		if len(sample) == manySample {
			break
		}
	}
	if len(sample) == 0 {
		if firstErr != nil {
			return firstErr
		}
		return fmt.Errorf("tet: table %q: none of the %d files %s matches holds dataset %q", t.args.table, len(t.list.files), t.args.pattern, t.args.dataset)
	}
	count := map[string]int{}
	for _, it := range sample {
		count[signature(it)]++
	}
	best := 0 // the first file of the most common signature (the earliest such on a tie)
	for i, it := range sample {
		if count[signature(it)] > count[signature(sample[best])] {
			best = i
		}
	}
	t.tmpl = sample[best]
	closeInner(slices.Delete(sample, best, best+1))
	return nil
}

// signature is what files of one table must agree on.
func signature(it *innerTable) string {
	return it.at.info.DType.String() + "\x00" + numericLabels(it.decl)
}

// closeInner closes inner tables.
func closeInner(its []*innerTable) {
	for _, it := range its {
		it.close()
	}
}

// innerColumnNames lists the column names of declarations d.
func innerColumnNames(d string) []string {
	var out []string
	for _, c := range splitDecl(d) {
		c = strings.TrimSpace(c)
		if strings.HasPrefix(c, `"`) {
			end := strings.Index(c[1:], `"`)
			for end >= 0 && end+2 < len(c) && c[end+2] == '"' { // "" inside a quoted name
				next := strings.Index(c[end+3:], `"`)
				if next < 0 {
					break
				}
				end += 2 + next
			}
			if end >= 0 {
				out = append(out, strings.ReplaceAll(c[1:end+1], `""`, `"`))
			}
			continue
		}
		name, _, _ := strings.Cut(c, " ")
		out = append(out, name)
	}
	return out
}

// splitDecl splits column declarations at the commas outside quotes.
func splitDecl(d string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(d); i++ {
		switch d[i] {
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				out = append(out, d[start:i])
				start = i + 1
			}
		}
	}
	return append(out, d[start:])
}

// Disconnect releases the template file.
func (t *manyTable) Disconnect() error {
	t.args.session.tableEvent()
	t.pool.closeAll()
	t.tmpl.close()
	return nil
}

// Destroy is Disconnect: dropping the table never touches a file.
func (t *manyTable) Destroy() error { return t.Disconnect() }

// Panicked implements sqlitevt.PanicHandler.
func (t *manyTable) Panicked(where string, p any) error {
	err := internalError(t.qualified, where, p)
	t.args.session.setErr(err)
	return err
}

// fileValue is file column col (0: the path, then the hive keys) of
// file i; nil for a hive key its path lacks.
func (t *manyTable) fileValue(i, col int) *string {
	f := &t.list.files[i]
	if col == 0 {
		return &f.path
	}
	if !f.has[col-1] {
		return nil
	}
	return &f.hive[col-1]
}

var _ = array.F32
