package repl

import "github.com/tetsql/tetsql"

// Safe mode (Options.Safe, tetsql --safe) refuses the dot commands that
// read or write a path the user names, or reach the shell: the SQL side
// is refused by the connection's own safe mode (tetsql.Config.Safe). The
// list also holds the sqlite3 shell's commands of that kind which this
// shell does not have, so that a user trying them learns they are
// refused rather than unknown. .verify and .info stay: they read only the
// files already attached.
var safeRefusedDots = map[string]bool{
	"open": true, "output": true, "once": true, "read": true,
	"shell": true, "system": true, "import": true, "save": true,
	"backup": true, "restore": true, "load": true, "log": true,
	"cd": true, "excel": true, "clone": true,
	"sh": true, "trace": true, "archive": true, "ar": true,
	"recover": true,
}

// safeRefused returns the error of a dot command safe mode refuses, or
// nil.
func (s *Shell) safeRefused(name string) error {
	if !s.opt.Safe {
		return nil
	}
	if safeRefusedDots[name] {
		return &tetsql.NotAllowedError{What: "." + name}
	}
	return nil
}
