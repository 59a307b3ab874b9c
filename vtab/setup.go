package vtab

import (
	"fmt"

	"github.com/tetsql/tetsql/internal/scan"
)

// SetupSQL returns the statements that attach the file at path, already
// opened as src, as schema alias on one connection: an in-memory schema
// holding the metadata tables, the tables the file's format has of its
// own (array.TableProvider), one cells table and one aggregate table per
// dataset, named by [TableNames]. A format table whose name or columns
// cannot be used (see docs/SQL.md, "Format-specific tables") makes one
// of the statements fail with the reason. The tables belong to the session
// of the connection they are created on (see [Open]); session is not
// used and may be nil (it is kept so that callers need not change).
func SetupSQL(alias, path string, src *scan.Source, session *Session) []string {
	q := quoteIdent(alias)
	p := quoteString(path)
	stmts := []string{fmt.Sprintf("ATTACH DATABASE ':memory:' AS %s", q)}
	for _, m := range MetaTables {
		stmts = append(stmts, fmt.Sprintf("CREATE VIRTUAL TABLE %s.%s USING %s(%s, %s)", q, m, ModuleName, p, m))
	}
	stmts = append(stmts, formatTableSQL(q, p, src)...)
	names := TableNames(src)
	for _, kind := range []string{"cells", "agg"} {
		for _, n := range names {
			table := n.Cells
			if kind == "agg" {
				table = n.Agg
			}
			if table == "" {
				continue // a dataset named X_agg suppresses X's companion
			}
			stmts = append(stmts, fmt.Sprintf("CREATE VIRTUAL TABLE %s.%s USING %s(%s, %s, %s)",
				q, quoteIdent(table), ModuleName, p, kind, datasetArg(n.Dataset)))
		}
	}
	return stmts
}

// datasetArg names a dataset in the module arguments: by its name as a
// string literal, or, for a name SQL text cannot carry, by its position
// in the file's list (dataset_id=N).
func datasetArg(a *scan.Array) string {
	if name := a.Info().Name; sqlSafe(name) {
		return quoteString(name)
	}
	return fmt.Sprintf("dataset_id=%d", a.Index())
}
