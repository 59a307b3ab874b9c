package repl

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// sqlWords are the keywords offered by tab completion.
var sqlWords = strings.Fields(`SELECT FROM WHERE AND OR NOT IN BETWEEN LIKE IS NULL GROUP BY
	ORDER ASC DESC LIMIT OFFSET HAVING JOIN LEFT ON USING AS DISTINCT COUNT SUM AVG MIN MAX
	CREATE TEMP TABLE VIEW INSERT INTO VALUES WITH UNION ALL CASE WHEN THEN ELSE END ATTACH
	EXPLAIN QUERY PLAN json_extract`)

// CompleteWord is a tab completer for Terminal.SetCompleter: dot command
// names at the start of a line; elsewhere table names, column names
// and SQL keywords that start with the word before the cursor.
func (s *Shell) CompleteWord(line string, pos int) (head string, completions []string, tail string) {
	if pos > len(line) {
		pos = len(line)
	}
	before, tail := line[:pos], line[pos:]
	if t := strings.TrimLeft(before, " \t"); strings.HasPrefix(t, ".") && !strings.ContainsAny(t, " \t") {
		for _, n := range dotNames() {
			if strings.HasPrefix(n, strings.ToLower(t)) {
				completions = append(completions, n)
			}
		}
		return before[:len(before)-len(t)], completions, tail
	}
	start := len(before)
	for start > 0 && (idChar(before[start-1]) || before[start-1] == '.') {
		start--
	}
	head, word := before[:start], before[start:]
	if word == "" {
		return head, nil, tail
	}
	seen := map[string]bool{}
	add := func(c string) {
		if len(c) >= len(word) && strings.EqualFold(c[:len(word)], word) && !seen[c] {
			seen[c] = true
			completions = append(completions, c)
		}
	}
	for _, n := range s.names(context.Background()) {
		add(n)
	}
	upper := strings.ToUpper(word) == word
	for _, k := range sqlWords {
		if !upper {
			k = strings.ToLower(k)
		}
		add(k)
	}
	sort.Strings(completions)
	return head, completions, tail
}

// names lists table names (bare and schema-qualified) and column names
// for completion.
func (s *Shell) names(ctx context.Context) []string {
	scs, err := s.schemas(ctx)
	if err != nil {
		return nil
	}
	var out []string
	for _, sc := range scs {
		q := fmt.Sprintf(`SELECT m.name, p.name FROM %s.sqlite_schema AS m, pragma_table_info(m.name, %s) AS p
			WHERE m.type IN ('table', 'view')`, quoteIdent(sc.name), quoteString(sc.name))
		s.queryRows(ctx, q, func(v []any) error {
			t := quoteIfNeeded(str(v[0]))
			out = append(out, t, sc.name+"."+t, quoteIfNeeded(str(v[1])))
			return nil
		})
	}
	return out
}
