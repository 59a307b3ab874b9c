package main

import "strings"

// step is one -c COMMAND or -f FILE. They run in command-line order, as
// sqlite3 runs its options: -f a.sql -c "SELECT 1" runs a.sql first.
type step struct {
	file bool   // -f: text names a script file (- is stdin)
	text string // the command, or the file's name
}

// stepValue is the pflag.Value of -c or -f: each value goes to the
// flag's own list and to the shared list of steps, which keeps the
// order of -c and -f among each other.
type stepValue struct {
	list  *[]string
	steps *[]step
	file  bool
}

// Set records one value of the flag.
func (v *stepValue) Set(s string) error {
	*v.list = append(*v.list, s)
	*v.steps = append(*v.steps, step{file: v.file, text: s})
	return nil
}

// Type is the value's type for pflag: a list of strings, each value
// taken whole (no splitting at commas).
func (v *stepValue) Type() string { return "stringArray" }

// String is the flag's values, "" when none (pflag shows no default).
func (v *stepValue) String() string { return strings.Join(*v.list, ",") }
