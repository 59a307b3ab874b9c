package vtab

import "time"

// Declared types of the label columns whose labels are all dates, or all
// dates and timestamps, when the session asks for time labels
// (Session.TimeLabels). Both contain "TEXT", so the column keeps TEXT
// affinity: a declared DATE would have NUMERIC affinity and change how
// the column compares with numbers (time_label > 3000 would hold).
const (
	DeclDateLabels     = "DATE_TEXT"
	DeclDateTimeLabels = "DATETIME_TEXT"
)

// labelLayouts are the label forms read as times: ISO 8601 dates, and
// timestamps with "T" or a space, optional seconds and fraction, and an
// optional zone (none = UTC).
var labelLayouts = []string{
	time.DateOnly,
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04",
	"2006-01-02 15:04",
}

// ParseLabelTime reads a date or timestamp label (see labelLayouts).
func ParseLabelTime(s string) (time.Time, bool) {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return time.Time{}, false
	}
	for _, l := range labelLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// labelDecl is the declared type of a label column: TEXT, or with
// timeLabels one of the Decl*Labels types when every label reads as a
// time.
func labelDecl(labels []string, timeLabels bool) string {
	if !timeLabels || len(labels) == 0 {
		return "TEXT"
	}
	dateOnly := true
	for _, l := range labels {
		if _, ok := ParseLabelTime(l); !ok {
			return "TEXT"
		}
		dateOnly = dateOnly && len(l) == len(time.DateOnly)
	}
	if dateOnly {
		return DeclDateLabels
	}
	return DeclDateTimeLabels
}
