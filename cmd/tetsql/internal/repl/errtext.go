package repl

import (
	"errors"
	"io/fs"
	"regexp"
	"strings"
)

// The text of an error as the shell prints it: what a user can act on,
// without the names of the Go packages and functions it passed through.
// The errors themselves keep their chain (errors.Is and errors.As work
// for Go callers); only the printed text changes.

// sqliteCode matches the " (1)" result code modernc.org/sqlite appends.
var sqliteCode = regexp.MustCompile(` \(\d+\)$`)

// packagePrefixes are the "name: " prefixes tetsql's packages put on
// their errors, dropped from the printed text: a message says which
// file, dataset or chunk it is about, never which package noticed.
var packagePrefixes = map[string]bool{
	"tetsql": true, "tet": true, "tetcore": true, "b2nd": true, "tgm": true,
	"blosc": true, "vtab": true, "sqlitevt": true, "memformat": true, "scan": true,
	"mapfile": true,
	// Go's own: database/sql and its driver interface.
	"sql": true, "driver": true,
}

// goPhrases are Go's own wordings of conditions the shell has words for.
var goPhrases = strings.NewReplacer(
	"context canceled", "interrupted",
	"context deadline exceeded", "time limit exceeded",
	"bad connection", "connection lost",
	"time: invalid duration", "invalid duration",
)

// strconvError matches strconv's "strconv.ParseInt: parsing "x": invalid
// syntax" (as pflag reports a bad number).
var strconvError = regexp.MustCompile(`strconv\.Parse(\w+): parsing ("(?:[^"\\]|\\.)*"): (invalid syntax|value out of range)`)

// tidy is the printed text of an error message: without SQLite's
// generic "SQL logic error: " prefix and numeric result code, package
// prefixes, a path repeated after "PATH: " or "open PATH: " (or
// "output PATH: ", "init file PATH: "), and Go's wordings.
func tidy(msg string) string {
	msg = sqliteCode.ReplaceAllString(msg, "")
	msg = strings.Replace(msg, "SQL logic error: ", "", 1)
	msg = strconvError.ReplaceAllStringFunc(msg, func(m string) string {
		sub := strconvError.FindStringSubmatch(m)
		what := "a number"
		if sub[1] == "Bool" {
			what = "true or false"
		}
		if sub[3] == "value out of range" {
			return sub[2] + " is out of range"
		}
		return sub[2] + " is not " + what
	})
	parts := strings.Split(msg, ": ")
	out := parts[:0:0]
	for i, p := range parts {
		switch {
		case i < len(parts)-1 && packagePrefixes[p]:
			continue // "tet: …"
		case len(out) > 0 && repeatsPath(out[len(out)-1], p):
			continue // "open x.tet: stat x.tet: …", "init file x: open x: …"
		}
		if path, ok := strings.CutPrefix(p, "stat "); ok && i < len(parts)-1 && path != "" {
			p = "open " + path // os.Stat's wording of a file that cannot be opened
		}
		out = append(out, p)
	}
	return goPhrases.Replace(strings.Join(out, ": "))
}

// pathLabels are the words before a path that names what a message is
// about ("output x.csv: …"); pathOps are Go's os operations, whose
// errors repeat the path ("open x.csv: …").
var (
	pathLabels = []string{"", "open ", "output ", "init file ", "script "}
	pathOps    = []string{"", "open ", "stat ", "lstat ", "read ", "write ", "close ", "sync "}
)

// repeatsPath reports whether part only repeats the path prev names:
// prev is a path, perhaps after a label ("output x.csv"), and part that
// path, perhaps after an os operation ("open x.csv").
func repeatsPath(prev, part string) bool {
	for _, l := range pathLabels {
		path, ok := strings.CutPrefix(prev, l)
		if !ok || path == "" || strings.ContainsAny(path, " \n") && l == "" {
			continue
		}
		for _, op := range pathOps {
			if part == op+path && l+op != "" { // "x: x" may mean two things
				return true
			}
		}
	}
	return false
}

// withoutPath is err without the *fs.PathError around it when that
// names path: for a message that names path already.
func withoutPath(err error, path string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return pe.Err
	}
	return err
}

// messageOf is Message: the tidied text of err and, for a statement
// error that SQLite places, the statement's line with a caret.
func messageOf(err error) string {
	msg := tidy(err.Error())
	var se *stmtError
	if errors.As(err, &se) && se.where != "" {
		msg += "\n" + se.where
	}
	return msg
}
