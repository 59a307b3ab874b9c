package vtab

import (
	"fmt"

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
	for _, ds := range f.Datasets {
		stmts = append(stmts, fmt.Sprintf("CREATE VIRTUAL TABLE %s.%s USING %s(%s, cells, %s%s)",
			q, quoteIdent(ds.Name), ModuleName, p, quoteString(ds.Name), sess))
	}
	return stmts
}
