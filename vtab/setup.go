package vtab

import (
	"fmt"
	"strings"

	"github.com/tetsql/tetsql/tetcore"
)

// SetupSQL returns the statements that attach the file at path, already
// opened as f, as schema alias on one connection: an in-memory schema
// holding the metadata tables and one cells table per dataset. session
// may be nil.
func SetupSQL(alias, path string, f *tetcore.File, session *Session) []string {
	sess := ""
	if session != nil {
		sess = fmt.Sprintf(", session=%d", session.ID)
	}
	q := quoteIdent(alias)
	p := quoteString(path)
	stmts := []string{fmt.Sprintf("ATTACH DATABASE ':memory:' AS %s", q)}
	for _, m := range MetaTables {
		stmts = append(stmts, fmt.Sprintf("CREATE VIRTUAL TABLE %s.%s USING %s(%s, %s%s)", q, m, ModuleName, p, m, sess))
	}
	names := map[string]bool{}
	for _, ds := range f.Datasets {
		names[strings.ToLower(ds.Name)] = true
	}
	for _, ds := range f.Datasets {
		stmts = append(stmts, fmt.Sprintf("CREATE VIRTUAL TABLE %s.%s USING %s(%s, cells, %s%s)",
			q, quoteIdent(ds.Name), ModuleName, p, quoteString(ds.Name), sess))
	}
	// The companion X_agg of each dataset X, unless a dataset or a
	// metadata table already has that name.
	for _, ds := range f.Datasets {
		agg := ds.Name + "_agg"
		if names[strings.ToLower(agg)] || strings.HasPrefix(strings.ToLower(agg), "tet_") {
			continue
		}
		stmts = append(stmts, fmt.Sprintf("CREATE VIRTUAL TABLE %s.%s USING %s(%s, agg, %s%s)",
			q, quoteIdent(agg), ModuleName, p, quoteString(ds.Name), sess))
	}
	return stmts
}
