// Package repl provides the tetsql shell: a statement buffer that cuts
// input into complete SQL statements, line input behind the small
// LineReader interface (Terminal for interactive use with line editing
// and history, a plain scanner for scripts), the dot commands, and
// Shell, which runs statements on one *sql.Conn and streams their rows
// to the formatters of internal/output.
//
// The command in cmd/tetsql only parses flags and wires these together;
// the user contract is "tetsql --help", .help, the tour in the
// repository's README.md and docs/SQL.md.
//
// Errors: Exec and RunScript report ErrQuit for .quit (a QuitError,
// which is ErrQuit, for .exit N; Interactive reports only that one),
// ErrInterrupted for a statement cancelled by Ctrl-C or its context, and
// otherwise the driver's error; Message gives the text to print after
// "Error: ".
package repl
