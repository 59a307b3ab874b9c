package repl

import (
	"fmt"
	"sort"
	"strings"
)

// Finding the command a dot command line names. sqlite3 takes a prefix
// of a command's name (.hea for .headers), trying its commands in its
// own order; this shell takes, in order: a command's name or alias as
// typed; else the one command a name or alias of which starts with what
// was typed; else, when several do, an error listing them; else the
// "unknown command" error with the close names.

// findDot returns the command name (lower case, without the dot) names.
func findDot(name string) (*dotCmd, error) {
	if c := lookupDot(name); c != nil {
		return c, nil
	}
	if safeRefusedDots[name] {
		// sqlite3's own command of that name (.sh is .shell there):
		// never taken for a prefix of another.
		return nil, unknownDot(name)
	}
	var found []*dotCmd
	var shown []string
	for _, c := range dotCmds {
		for _, n := range append([]string{c.name}, c.aliases...) {
			if strings.HasPrefix(n, name) {
				found = append(found, c)
				shown = append(shown, "."+n)
				break // a name and an alias of one command count once
			}
		}
	}
	switch len(found) {
	case 0:
		return nil, unknownDot(name)
	case 1:
		return found[0], nil
	}
	sort.Strings(shown)
	return nil, fmt.Errorf("\".%s\" is ambiguous: %s", name, strings.Join(shown, ", "))
}
