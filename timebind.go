package tetsql

import (
	"context"
	"database/sql/driver"
	"time"

	"github.com/tetsql/tetsql/vtab"
)

// CheckNamedValue implements driver.NamedValueChecker: arguments convert
// as database/sql's default converter does, except that a time.Time binds
// as ISO 8601 text (see [FormatTime]) instead of modernc's default, Go's
// time.Time.String form ("2024-01-01 00:00:00 +0000 UTC"), which equals no
// label a file holds.
func (c *Conn) CheckNamedValue(nv *driver.NamedValue) error {
	v, err := driver.DefaultParameterConverter.ConvertValue(nv.Value)
	if err != nil {
		return err
	}
	if t, ok := v.(time.Time); ok {
		v = FormatTime(t)
	}
	nv.Value = v
	return nil
}

// FormatTime is the text a time.Time argument binds as, chosen to equal
// the ISO 8601 coordinate labels files hold:
//
//   - midnight exactly (in t's own location) binds as a calendar date,
//     "2024-03-15", whatever the location: a date built with time.Date(y,
//     m, d, 0, 0, 0, 0, loc) means that day;
//   - any other time in UTC binds without a zone, "2024-03-15T06:30:00",
//     with a fraction only when nonzero ("…T06:30:00.25"): labels are
//     zone-less and, by convention, UTC;
//   - any other time elsewhere keeps its offset, "2024-03-15T06:30:00+01:00",
//     so that a local time never silently matches a UTC label of another
//     instant (convert with t.UTC() first to compare with UTC labels).
//
// To compare with labels of another form, bind t.Format(layout) instead.
func FormatTime(t time.Time) string {
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format(time.DateOnly)
	}
	const clock = "2006-01-02T15:04:05.999999999"
	if t.Location() == time.UTC {
		return t.Format(clock)
	}
	return t.Format(clock + "-07:00")
}

// newRows wraps SQLite's rows; with Config.TimeLabels it finds the label
// columns declared as holding times.
func newRows(inner driver.Rows, c *Conn, ctx context.Context, call *vtab.Call, cancel context.CancelFunc) *rows {
	r := &rows{inner: inner, c: c, ctx: ctx, call: call, cancel: cancel, watch: c.step.watch(ctx)}
	if c.session.TimeLabels {
		r.times = timeColumns(inner)
	}
	return r
}

// timeColumns returns, per column, the type name a label column of
// times reports ("DATE" or "DATETIME"), or nil when no column is one.
// Only a plain reference to the column keeps its declared type: an
// expression over it, such as upper(time_label), stays TEXT.
func timeColumns(inner driver.Rows) []string {
	dt, ok := inner.(driver.RowsColumnTypeDatabaseTypeName)
	if !ok {
		return nil
	}
	var out []string
	n := len(inner.Columns())
	for i := range n {
		name := ""
		switch dt.ColumnTypeDatabaseTypeName(i) {
		case vtab.DeclDateLabels:
			name = "DATE"
		case vtab.DeclDateTimeLabels:
			name = "DATETIME"
		default:
			continue
		}
		if out == nil {
			out = make([]string, n)
		}
		out[i] = name
	}
	return out
}

// labelTimes replaces the text of time label columns by its time.
func labelTimes(times []string, dest []driver.Value) {
	for i, name := range times {
		if name == "" {
			continue
		}
		if s, ok := dest[i].(string); ok {
			if t, ok := vtab.ParseLabelTime(s); ok {
				dest[i] = t
			}
		}
	}
}
