package repl

// Hooks for the external tests.

// Prompts of the interactive shell.
const (
	Prompt         = mainPrompt
	ContinuePrompt = continuePrompt
)

// Buffer is the statement buffer of interactive and piped input.
type Buffer = buffer

// Split cuts a whole script into statements, as RunScript does.
func Split(script string) (stmts []string, rest string) { return splitScript(script) }

// ErrOutputIsInput is the error of an output file that is an input.
var ErrOutputIsInput = errOutputIsInput

// ParseDot splits a dot command line like the shell does.
func ParseDot(line string) (name string, args []string, err error) { return parseDot(line) }

// Complete reports whether sql ends with a complete statement, like
// sqlite3_complete: the statement cutter's state machine seen whole.
func Complete(sql string) bool {
	var b Buffer
	stmts := b.add(sql)
	return len(stmts) > 0 && b.Empty()
}

// Seconds is the footer's form of a duration.
var Seconds = seconds
