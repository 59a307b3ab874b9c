// Command tetsql queries .tet tensor files with SQL: an interactive shell
// in the style of sqlite3 and DuckDB, and a scriptable command.
//
//	tetsql [flags] [ALIAS=]FILE.tet|'GLOB' ... [SQL]
//
// Each file is attached as its own schema; a quoted glob
// ('era5/**/*.tet') attaches all the files it matches as one schema of
// many-file tables (--on-error skip leaves out unreadable ones with a
// warning). See "tetsql --help", the tour
// in the repository's README.md and docs/SQL.md.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
