// Command tetsql queries .tet tensor files with SQL: an interactive shell
// in the style of sqlite3 and DuckDB, and a scriptable command.
//
//	tetsql [flags] [ALIAS=]FILE.tet ... [SQL]
//
// Each file is attached as its own schema. See "tetsql --help", the tour
// in the repository's README.md and docs/SQL.md.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
