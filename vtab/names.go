package vtab

import (
	"strconv"
	"strings"

	"github.com/tetsql/tetsql/internal/scan"
)

// DatasetTables are the table names one dataset gets in its schema.
type DatasetTables struct {
	Dataset *scan.Array
	Cells   string // the cells table
	Agg     string // the companion aggregate table; "" when not created
}

// TableNames names the tables of every dataset of src, in directory order.
// Any dataset name the format allows must give a usable, unique table,
// so names are adjusted (docs/SQL.md, "Table names"):
//
//   - a NUL byte (which SQL text cannot carry) becomes "_", and an empty
//     name becomes "_";
//   - a name starting with "sqlite_" (reserved by SQLite) or "tet_" (the
//     metadata tables' prefix) gets a leading "_";
//   - a name equal, ignoring ASCII case as SQLite does, to a table already
//     named gets "_2", "_3", … (the metadata tables first, then the
//     format's own tables (array.TableProvider) under their names, then
//     the cells tables in directory order, then the companions);
//   - the companion of a dataset is its cells table name plus "_agg";
//     when a cells table already has that name (a dataset "X_agg" beside
//     "X"), the companion is not created and Agg is "", as the SQL
//     contract says: the dataset's own table keeps the name users asked
//     for, and no second spelling of it is invented. A companion whose
//     name a format table has gets "_2", "_3", … as any other name.
//
// The names depend on the file alone, so every connection agrees.
func TableNames(src *scan.Source) []DatasetTables {
	taken := map[string]bool{}
	for _, m := range MetaTables {
		taken[asciiLower(m)] = true
	}
	// Refused format tables claim nothing: the file's attach fails (see
	// formatTableSQL).
	tables, _ := formatTables(src)
	for _, t := range tables {
		taken[asciiLower(t.Name)] = true
	}
	claim := func(base string) string {
		name := base
		for k := 2; taken[asciiLower(name)]; k++ {
			name = base + "_" + strconv.Itoa(k)
		}
		taken[asciiLower(name)] = true
		return name
	}
	arrays := src.Arrays()
	out := make([]DatasetTables, len(arrays))
	cells := map[string]bool{}
	for i, a := range arrays {
		out[i] = DatasetTables{Dataset: a, Cells: claim(tableBase(a.Info().Name))}
		cells[asciiLower(out[i].Cells)] = true
	}
	for i := range out {
		if name := out[i].Cells + "_agg"; !cells[asciiLower(name)] {
			out[i].Agg = claim(name)
		}
	}
	return out
}

// tableBase is a dataset name made usable as a table name (before
// de-duplication).
func tableBase(name string) string {
	name = strings.ReplaceAll(name, "\x00", "_")
	l := asciiLower(name)
	if name == "" || strings.HasPrefix(l, "sqlite_") || strings.HasPrefix(l, "tet_") {
		name = "_" + name
	}
	return name
}

// sqlSafe reports whether s can appear in SQL text (in a quoted literal
// or identifier) unchanged: SQLite's tokenizer stops at a NUL byte.
func sqlSafe(s string) bool { return !strings.ContainsRune(s, 0) }

// asciiLower folds ASCII letters only, as SQLite compares identifiers.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
