package output

import (
	"fmt"
	"strings"
)

// Mode selects an output format. The zero value is Box.
type Mode int

// The output modes, named as in the sqlite3 shell's .mode command.
const (
	Box        Mode = iota // Unicode box-drawing table (default on a terminal)
	Table                  // ASCII +---+ table
	CSV                    // RFC 4180 comma-separated values
	TSV                    // tab-separated values with backslash escapes
	JSON                   // one JSON array of row objects
	JSONL                  // one JSON object per line
	Markdown               // GitHub-flavoured pipe table
	Line                   // one "name = value" line per column, rows separated by a blank line
	List                   // sqlite3's default: values separated by "|", as they are
	ColumnMode             // sqlite3's column mode: aligned columns, no lines
	// Parquet is a binary Parquet file of one result set. New does not
	// format it: the shell writes it with tetsql.WriteParquet.
	Parquet
	// Arrow is a binary Arrow IPC stream of one result set (the IPC file
	// format in a .arrow or .feather file). New does not format it: the
	// shell writes it with tetsql.WriteArrow or tetsql.WriteArrowFile.
	Arrow
)

var modeNames = [...]string{
	Box:        "box",
	Table:      "table",
	CSV:        "csv",
	TSV:        "tsv",
	JSON:       "json",
	JSONL:      "jsonl",
	Markdown:   "markdown",
	Line:       "line",
	List:       "list",
	ColumnMode: "column",
	Parquet:    "parquet",
	Arrow:      "arrow",
}

// modeAliases are accepted by ParseMode besides the canonical names.
var modeAliases = map[string]Mode{
	"tabs":   TSV, // sqlite3 spelling
	"ndjson": JSONL,
	"md":     Markdown,
}

// Modes returns every text mode (those New formats) in declaration
// order; the binary modes (Parquet, Arrow) are not among them.
func Modes() []Mode {
	m := make([]Mode, Parquet)
	for i := range m {
		m[i] = Mode(i)
	}
	return m
}

// Binary reports whether the mode writes binary data (Parquet, Arrow),
// which never goes to a terminal.
func (m Mode) Binary() bool { return m == Parquet || m == Arrow }

// String returns the mode's canonical name, as accepted by ParseMode.
func (m Mode) String() string {
	if m >= 0 && int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode returns the mode named s (case-insensitive; the aliases "tabs",
// "ndjson" and "md" are accepted too). The error lists the valid names.
func ParseMode(s string) (Mode, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for i, n := range modeNames {
		if n == name {
			return Mode(i), nil
		}
	}
	if m, ok := modeAliases[name]; ok {
		return m, nil
	}
	return 0, fmt.Errorf("output: unknown mode %q (valid modes: %s)", s, strings.Join(modeNames[:], ", "))
}
