package repl

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tetsql/tetsql"
)

// "Did you mean": names close to a misspelt one. A name is close when
// its Damerau–Levenshtein distance (optimal string alignment: insert,
// delete, substitute, swap two neighbours) to the typed word, compared
// case-insensitively, is 1 or 2 and at most a third of the typed word's
// length: "temprature" finds "temperature", "tme" finds "time", "x"
// finds nothing. At most maxSuggestions, nearest first.

// maxSuggestions is the most names one "did you mean" offers.
const maxSuggestions = 3

// candidate is a name that may be suggested: key is compared with the
// typed word, show is what the suggestion says (schema-qualified,
// quoted where needed).
type candidate struct{ key, show string }

// closeNames returns the show names of the candidates close to word,
// nearest first and in the candidates' order among equals, each once.
func closeNames(word string, cands []candidate) []string {
	w := []rune(strings.ToLower(word))
	type hit struct {
		d    int
		show string
	}
	var hits []hit
	seen := map[string]bool{}
	for _, c := range cands {
		key := []rune(strings.ToLower(c.key))
		if len(key) > len(w)+2 || len(w) > len(key)+2 { // 3 edits at least: no need to align them
			continue
		}
		d := distance(w, key)
		if d == 0 || d > 2 || 3*d > len(w) || seen[strings.ToLower(c.show)] {
			continue
		}
		seen[strings.ToLower(c.show)] = true
		hits = append(hits, hit{d, c.show})
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return a.d - b.d })
	var out []string
	for _, h := range hits[:min(len(hits), maxSuggestions)] {
		out = append(out, h.show)
	}
	return out
}

// distance is the optimal string alignment distance of a and b.
func distance(a, b []rune) int {
	// Three rows of the dynamic programme: i-2, i-1 and i.
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// didYouMean is the suffix of a message offering names ("" for none):
// " — did you mean a?", " — did you mean a or b?", " — did you mean a, b or c?".
func didYouMean(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return " — did you mean " + names[0] + "?"
	}
	return " — did you mean " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + "?"
}

// DidYouMean is the " — did you mean …?" suffix for the names close to
// word ("" for none), compared without leading dashes so that the
// command line's "-stat" finds "--stats".
func DidYouMean(word string, names []string) string {
	var cands []candidate
	for _, n := range names {
		cands = append(cands, candidate{key: strings.TrimLeft(n, "-"), show: n})
	}
	return didYouMean(closeNames(strings.TrimLeft(word, "-"), cands))
}

// unknownDot is the error of a dot command name that does not exist.
func unknownDot(name string) error {
	var cands []candidate
	for _, n := range dotNames() {
		cands = append(cands, candidate{key: strings.TrimPrefix(n, "."), show: n})
	}
	var names []string
	seen := map[*dotCmd]bool{}
	for _, n := range closeNames(name, cands) { // one spelling per command, the closest
		if c := lookupDot(n[1:]); !seen[c] {
			seen[c] = true
			names = append(names, n)
		}
	}
	if hint := didYouMean(names); hint != "" {
		return fmt.Errorf("unknown command \".%s\"%s", name, hint)
	}
	return fmt.Errorf("unknown command \".%s\"; enter \".help\" for the list", name)
}

// suggestions returns the names close to tok, a table, column or
// function that does not exist in statement q. It reads the catalog
// (pragma_table_list, pragma_table_xinfo, pragma_function_list: allowed
// in safe mode, one row each whatever max_rows) on the shell's
// connection; an error there means no suggestion.
func (s *Shell) suggestions(ctx context.Context, q, tok string, kind errorKind) []string {
	var out []string
	switch kind {
	case kindTable:
		out = tableSuggestions(tok, s.lookupNames(ctx, tablesQuery))
	case kindColumn:
		out = columnSuggestions(tok, q, s.lookupNames(ctx, columnsQuery))
	case kindFunction:
		var cands []candidate
		for _, f := range s.lookupNames(ctx, functionsQuery) {
			cands = append(cands, candidate{key: f[0], show: f[0]})
		}
		out = closeNames(tok, cands)
	default:
		return nil
	}
	// The look-ups read no tet table; should one ever record a scan, it
	// is not the statement's and is dropped here.
	tetsql.Scans(context.Background(), s.conn)
	return out
}

// The catalog queries: each returns one row, a JSON array of arrays.
// Tables come in SQLite's search order for a bare name (temp, main,
// then the attached schemas in attach order).
const (
	tablesQuery = `SELECT json_group_array(json_array(schema, name)) FROM (
		SELECT t.schema, t.name FROM pragma_database_list AS d JOIN pragma_table_list AS t ON t.schema = d.name
		WHERE t.type IN ('table', 'view', 'virtual') AND t.name NOT LIKE 'sqlite\_%' ESCAPE '\'
		ORDER BY CASE d.name WHEN 'temp' THEN -1 ELSE d.seq END, t.name)`
	columnsQuery = `SELECT json_group_array(json_array(t.schema, t.name, c.name))
		FROM pragma_table_list AS t JOIN pragma_table_xinfo(t.name, t.schema) AS c
		WHERE t.type IN ('table', 'view', 'virtual') AND t.name NOT LIKE 'sqlite\_%' ESCAPE '\'`
	functionsQuery = `SELECT json_group_array(json_array(name)) FROM (SELECT DISTINCT name FROM pragma_function_list ORDER BY name)`
)

// lookupNames runs one of the catalog queries; nil on any error.
func (s *Shell) lookupNames(ctx context.Context, q string) [][]string {
	var js string
	if err := s.conn.QueryRowContext(ctx, q).Scan(&js); err != nil {
		return nil
	}
	var rows [][]string
	if json.Unmarshal([]byte(js), &rows) != nil {
		return nil
	}
	return rows
}

// tableSuggestions offers tables (rows of schema, name) close to tok.
// A bare tok is compared with bare names, shown bare where SQLite finds
// that table by its bare name, schema-qualified otherwise; a qualified
// tok (schema.name, as SQLite's message shows it) with qualified names.
func tableSuggestions(tok string, tables [][]string) []string {
	qualifiedTok := strings.Contains(tok, ".")
	first := map[string]string{} // lower-case name → the schema a bare name finds
	var cands []candidate
	for _, t := range tables {
		if len(t) != 2 {
			return nil
		}
		schema, name := t[0], t[1]
		show := quoteIfNeeded(schema) + "." + quoteIfNeeded(name)
		if qualifiedTok {
			cands = append(cands, candidate{key: schema + "." + name, show: show})
			continue
		}
		if _, ok := first[strings.ToLower(name)]; !ok {
			first[strings.ToLower(name)] = schema
			show = quoteIfNeeded(name)
		}
		cands = append(cands, candidate{key: name, show: show})
	}
	return closeNames(tok, cands)
}

// columnSuggestions offers columns (rows of schema, table, column)
// close to tok: those of the tables statement q names, or of every
// table when q names none. A qualified tok (alias.column) keeps its
// qualifier.
func columnSuggestions(tok, q string, cols [][]string) []string {
	qual, word := "", tok
	if i := strings.LastIndexByte(tok, '.'); i >= 0 {
		qual, word = tok[:i+1], tok[i+1:]
	}
	named := identifiers(q)
	var in, all []candidate
	for _, c := range cols {
		if len(c) != 3 {
			return nil
		}
		cand := candidate{key: c[2], show: qual + quoteIfNeeded(c[2])}
		all = append(all, cand)
		if named[strings.ToLower(c[1])] {
			in = append(in, cand)
		}
	}
	if len(in) > 0 {
		return closeNames(word, in)
	}
	return closeNames(word, all)
}

// identifiers returns the words of q outside string literals and
// comments (quoted identifiers unquoted), lower-cased.
func identifiers(q string) map[string]bool {
	code := codeBytes(q)
	out := map[string]bool{}
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case !code[i]:
			i++
		case c == '"' || c == '`' || c == '[':
			end := map[byte]byte{'"': '"', '`': '`', '[': ']'}[c]
			j := strings.IndexByte(q[i+1:], end)
			if j < 0 {
				return out
			}
			out[strings.ToLower(q[i+1:i+1+j])] = true
			i += j + 2
		case idChar(c):
			j := i
			for j < len(q) && idChar(q[j]) {
				j++
			}
			out[strings.ToLower(q[i:j])] = true
			i = j
		default:
			i++
		}
	}
	return out
}
