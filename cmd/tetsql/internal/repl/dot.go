package repl

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// parseDot splits a dot command line into its name (lower case, without
// the dot) and arguments (see splitDot: '…' and "…" quote an argument
// with blanks in it).
func parseDot(line string) (name string, args []string, err error) {
	words, err := splitDot(line)
	if err != nil {
		return "", nil, err
	}
	for _, w := range words[1:] {
		args = append(args, w.text)
	}
	return strings.ToLower(words[0].text), args, nil
}

// dotCmd is one dot command: its usage, help and implementation.
type dotCmd struct {
	name     string
	aliases  []string
	args     string // argument synopsis for .help
	help     string
	min, max int  // argument count bounds; max -1 = any
	escapes  bool // resolve the backslash escapes of unquoted arguments too (dot_args.go)
	run      func(s *Shell, ctx context.Context, args []string) error
}

// dotCmds is the command table, in .help order (filled by init to break
// the initialization cycle through .help).
var dotCmds []*dotCmd

func init() {
	dotCmds = []*dotCmd{
		{name: "help", args: "[COMMAND]", help: "show this list, or one command's help", max: 1, run: (*Shell).dotHelp},
		{name: "tables", args: "[PATTERN]", help: "list tables (LIKE pattern), schema-qualified outside main", max: 1, run: (*Shell).dotTables},
		{name: "schema", args: "[TABLE]", help: "show CREATE statements (columns of the tet tables)", max: 1, run: (*Shell).dotSchema},
		{name: "datasets", args: "[SCHEMA]", help: "catalog: datasets with dtype, shape, chunks, dims, labels, attrs, sizes", max: 1, run: (*Shell).dotDatasets},
		{name: "info", args: "[FILE]", help: "show the tet_file row of each file (or of FILE: alias or path)", max: 1, run: (*Shell).dotInfo},
		{name: "verify", args: "[--deep]", help: "check every attached file; --deep also decodes every chunk", max: 1, run: (*Shell).dotVerify},
		{name: "open", args: "FILE [AS ALIAS]", help: "attach another file as a schema; a quoted glob attaches all its files as one", min: 1, max: 3, run: (*Shell).dotOpen},
		{name: "mode", args: "[MODE]", help: "show or set the output mode: box table csv tsv json jsonl markdown line list column parquet arrow", max: 1, run: (*Shell).dotMode},
		{name: "headers", aliases: []string{"header"}, args: "on|off", help: "header row in csv, tsv and column (also .header)", min: 1, max: 1, run: (*Shell).dotHeaders},
		{name: "nullvalue", args: "TEXT", help: "text shown for NULL", min: 1, max: 1, run: (*Shell).dotNull},
		{name: "output", args: "[FILE]", help: "send results to FILE, in the format its extension names (.csv .tsv .json .jsonl .md .parquet .arrows …) unless .mode follows; none: back to stdout", max: 1, run: (*Shell).dotOutput},
		{name: "once", args: "FILE", help: "send the next statement's results to FILE (format as .output; replaced only if it succeeds)", min: 1, max: 1, run: (*Shell).dotOnce},
		{name: "timer", args: "on|off", help: "print the run time of each statement", min: 1, max: 1, run: (*Shell).dotTimer},
		{name: "stats", args: "on|off", help: "print chunks/rows/bytes of each scan after each statement", min: 1, max: 1, run: (*Shell).dotStats},
		{name: "read", args: "FILE", help: "run the SQL and dot commands in FILE", min: 1, max: 1, run: (*Shell).dotRead},
		{name: "maxrows", args: "[N]", help: "show or set how many rows a grid shows on a terminal (default 40; 0 = all)", max: 1, run: (*Shell).dotMaxRows},
		{name: "width", args: "[N ...]", help: "column widths of box, table, markdown and column (0 = auto, negative = right-aligned); none = all auto", max: -1, run: (*Shell).dotWidth},
		{name: "echo", args: "on|off", help: "print each command of a script or the shell, as read, before running it", min: 1, max: 1, run: (*Shell).dotEcho},
		{name: "bail", args: "on|off", help: "end the shell at the first error (scripts always stop there)", min: 1, max: 1, run: (*Shell).dotBail},
		{name: "parameter", aliases: []string{"param"}, args: "init|list|clear|set NAME VALUE|unset NAME", help: "values bound to :x $x @x ?1 in statements (unset ones are NULL); VALUE is an SQL literal or expression, else text", min: 1, max: 3, run: (*Shell).dotParameter},
		{name: "print", args: "[TEXT ...]", help: "write TEXT (words joined by spaces; \\t \\n \\\\ … are escapes) to the output", max: -1, escapes: true, run: (*Shell).dotPrint},
		{name: "show", help: "show the current settings", run: (*Shell).dotShow},
		{name: "databases", help: "list the attached schemas and their files", run: (*Shell).dotDatabases},
		{name: "quit", aliases: []string{"exit"}, args: "[STATUS]", help: "leave the shell, with exit status STATUS (default 0; also .exit, Ctrl-D)", max: 1, run: (*Shell).dotQuit},
	}
}

// lookupDot finds a command by name or alias.
func lookupDot(name string) *dotCmd {
	for _, c := range dotCmds {
		if c.name == name {
			return c
		}
		for _, a := range c.aliases {
			if a == name {
				return c
			}
		}
	}
	return nil
}

// dot parses and runs one dot command line.
func (s *Shell) dot(ctx context.Context, line string) error {
	words, err := splitDot(line)
	if err != nil {
		return err
	}
	name := strings.ToLower(words[0].text)
	if err := s.safeRefused(name); err != nil {
		return err
	}
	c, err := findDot(name)
	if err != nil {
		return err
	}
	if err := s.safeRefused(c.name); err != nil {
		return err
	}
	args := make([]string, 0, len(words)-1)
	for _, w := range words[1:] {
		if w.bare && c.escapes {
			w.text = resolveBackslashes(w.text)
		}
		args = append(args, w.text)
	}
	if len(args) < c.min || (c.max >= 0 && len(args) > c.max) {
		used := c.name // as typed when it is an alias (.exit, not .quit)
		if slices.Contains(c.aliases, name) {
			used = name
		}
		return fmt.Errorf("usage: .%s %s", used, c.args)
	}
	return s.guard(ctx, func(ctx context.Context) error { return c.run(s, ctx, args) })
}

// dotHelp prints the command list, or one command's help.
func (s *Shell) dotHelp(_ context.Context, args []string) error {
	w := s.opt.Stdout
	if len(args) == 1 {
		c, err := findDot(strings.TrimPrefix(strings.ToLower(args[0]), "."))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, ".%s %s\n    %s\n", c.name, c.args, c.help)
		return nil
	}
	writeDotHelp(w)
	fmt.Fprint(w, helpFooter)
	return nil
}

func writeDotHelp(w io.Writer) {
	width := 0
	for _, c := range dotCmds {
		width = max(width, len(c.name)+len(c.args)+2)
	}
	for _, c := range dotCmds {
		fmt.Fprintf(w, "%-*s  %s\n", width, strings.TrimSpace("."+c.name+" "+c.args), c.help)
	}
}

const helpFooter = `
SQL statements end with ';' and may span lines; Up and Ctrl-R recall history.
Ctrl-C cancels a running statement or clears the input; Ctrl-D leaves.
Each .tet file is a schema with one table per dataset (plus <dataset>_agg)
and the tet_* metadata tables, e.g. SELECT * FROM tet_datasets;
On a terminal, grids fit the window: long cells end in "…", columns past its
edge become one "…" column, and 40 rows show (.maxrows); .mode line shows all.
`

// DotUsage lists the dot commands with their arguments, in .help order
// (".open FILE [AS ALIAS]", …).
func DotUsage() []string {
	out := make([]string, len(dotCmds))
	for i, c := range dotCmds {
		out[i] = strings.TrimSpace("." + c.name + " " + c.args)
	}
	return out
}

// dotNames lists the dot command names, sorted, with their dots (for
// completion).
func dotNames() []string {
	var out []string
	for _, c := range dotCmds {
		out = append(out, "."+c.name)
		for _, a := range c.aliases {
			out = append(out, "."+a)
		}
	}
	sort.Strings(out)
	return out
}
