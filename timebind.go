package tetsql

import (
	"database/sql/driver"
	"time"
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
