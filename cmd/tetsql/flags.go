package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/tetsql/tetsql"
	"github.com/tetsql/tetsql/cmd/tetsql/internal/repl"
	"github.com/tetsql/tetsql/internal/glob"
)

// options are the parsed command line.
type options struct {
	commands       []string
	scripts        []string
	steps          []step // -c and -f in command-line order
	mode           string
	compression    string
	header         bool
	null           string
	output         string
	stats, timer   bool
	echo, bail     bool // --echo, --bail (-echo, -bail)
	batch          bool // --batch: stdin is a script even on a terminal
	interactive    bool // --interactive: the shell even when stdin is not a terminal
	noStdin        bool // --no-stdin: nothing read from stdin
	maxChunkBytes  string
	cacheBudget    string
	memLimit       string
	readAhead      int
	readAheadBytes string
	safe           bool
	noAggRewrite   bool
	timeout        string
	maxRows        int64
	onErrorSkip    bool     // --on-error skip
	init           string   // --init FILE (-init): run first instead of ~/.tetsqlrc
	noInit         bool     // --no-init: no init file
	cmds           []string // --cmd (-cmd): run before the rest, the shell going on after
	version        bool
	partitionBy    []string // --partition-by
	files          []tetsql.FileSpec
	sql            string // the trailing SQL argument
	hasSQL         bool   // the SQL argument was given, even empty: run it and exit
	// given names the shell settings the command line set (mode, header,
	// null, timer, stats, echo, bail): they win over the init file's.
	given []string
}

// errHelp asks run to print the help and exit 0.
var errHelp = errors.New("help requested")

func newFlagSet(o *options) *pflag.FlagSet {
	fs := pflag.NewFlagSet("tetsql", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	fs.VarP(&stepValue{list: &o.commands, steps: &o.steps}, "command", "c", "run `SQL` or a dot command, then exit (repeatable; -c and -f run in command-line order)")
	fs.VarP(&stepValue{list: &o.scripts, steps: &o.steps, file: true}, "file", "f", "run the SQL and dot commands in `FILE` (repeatable)")
	fs.StringVar(&o.mode, "mode", "", "output `MODE`: box table csv tsv json jsonl markdown line list column parquet arrow (default: box on a terminal, else csv); arrow is an Arrow IPC stream (the IPC file format in a .arrow or .feather file)")
	fs.Bool("csv", false, "same as --mode csv")
	fs.Bool("json", false, "same as --mode json")
	fs.BoolVar(&o.header, "header", true, "header row in csv, tsv and column")
	fs.Bool("no-header", false, "no header row in csv, tsv and column")
	fs.StringVar(&o.null, "null", "", "`TEXT` shown for NULL (default empty)")
	fs.StringVarP(&o.output, "output", "o", "", "write results to `FILE` (replaced only if the run succeeds); its extension (.csv .json .jsonl .md .tsv .parquet, .arrows for an Arrow IPC stream, .arrow .feather for an Arrow IPC file) picks the mode unless --mode is given")
	fs.StringSliceVar(&o.partitionBy, "partition-by", nil, "write a hive-partitioned Parquet dataset into the directory -o DIR, one directory level per `COLUMN` (comma-separated); needs the query as the SQL argument")
	fs.StringVar(&o.compression, "compression", "zstd", "`CODEC` of Parquet output: zstd snappy gzip none")
	fs.BoolVar(&o.stats, "stats", false, "print chunks/rows/bytes read by each scan to stderr after each statement")
	fs.BoolVar(&o.timer, "timer", false, "print each statement's run time to stderr")
	fs.StringVar(&o.maxChunkBytes, "max-chunk-bytes", "", "cap on the decoded `SIZE` of one chunk, e.g. 1GiB (default 256MiB)")
	fs.StringVar(&o.cacheBudget, "cache-budget", "", "keep up to `SIZE` of decoded zstd chunks per file for later queries (default 256MiB, 0 = none)")
	fs.StringVar(&o.memLimit, "mem-limit", "", "most memory one query may use for tetsql's own buffers (aggregate groups, metadata rows), e.g. 4GiB (default 1GiB)")
	fs.IntVar(&o.readAhead, "read-ahead", 0, "decode `N` chunks ahead of a scan on other goroutines (0-64, 0 = off; default: automatic for compressed data)")
	fs.StringVar(&o.readAheadBytes, "read-ahead-bytes", "", "most decoded `SIZE` one scan reads ahead (default 256MiB)")
	fs.BoolVar(&o.noAggRewrite, "no-agg-rewrite", false, "run aggregate queries over a cells table row by row as written, instead of answering them from its _agg companion")
	fs.BoolVar(&o.safe, "safe", false, "safe mode for untrusted SQL (also -safe): only reading statements; ATTACH, VACUUM, CREATE, DROP, INSERT, writing PRAGMAs, load_extension and the dot commands .open .output .once .read are refused; the limits below default to 30s, 1000000 rows and a 256MiB --mem-limit")
	fs.StringVar(&o.timeout, "statement-timeout", "", "stop a statement after `DURATION`, e.g. 30s or 2m (0 = none; default none, 30s with --safe)")
	fs.Int64Var(&o.maxRows, "max-rows", 0, "fail a result with more than `N` rows (0 = any; default any, 1000000 with --safe)")
	fs.String("on-error", "fail", "`MODE` for a file a glob matched that cannot be read: fail (the statement fails, naming it) or skip (left out, with a warning line on stderr)")
	fs.StringVar(&o.init, "init", "", "run the SQL and dot commands in `FILE` first (also -init), instead of ~/.tetsqlrc")
	fs.BoolVar(&o.noInit, "no-init", false, "run no init file (not even ~/.tetsqlrc)")
	fs.StringArrayVar(&o.cmds, "cmd", nil, "run `COMMAND` (SQL or a dot command) before the rest, without ending the shell after it (also -cmd; repeatable)")
	fs.Bool("readonly", true, "accepted for sqlite3's -readonly: tetsql never writes to its input files")
	fs.BoolVar(&o.bail, "bail", false, "end the interactive shell at the first error, with exit status 1 (also -bail, .bail on); a script run always stops at its first error")
	fs.BoolVar(&o.echo, "echo", false, "print each command of a script or the shell, as read, before running it (also -echo, .echo on)")
	fs.BoolVar(&o.batch, "batch", false, "read stdin as a script even on a terminal: no prompt, and the first error ends it (also -batch)")
	fs.BoolVar(&o.interactive, "interactive", false, "run the interactive shell even when stdin is not a terminal, prompting on stderr; an error does not end it (also -interactive)")
	fs.BoolVar(&o.noStdin, "no-stdin", false, "read nothing from stdin: end after the init file and the --cmd commands (also -no-stdin); -f - and --init - are refused with it")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.BoolP("help", "h", false, "show this help")
	return fs
}

// parseFlags parses args; errors are usage errors.
func parseFlags(args []string) (*options, error) {
	o := &options{}
	fs := newFlagSet(o)
	norm, err := normalizeArgs(fs, args)
	if err != nil {
		return nil, err
	}
	if err := fs.Parse(norm); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, errHelp
		}
		return nil, flagError(err)
	}
	if h, _ := fs.GetBool("help"); h {
		return nil, errHelp
	}
	if o.maxRows < 0 {
		return nil, fmt.Errorf("--max-rows %d: want a number of rows (0 = any)", o.maxRows)
	}
	if fs.Changed("max-rows") && o.maxRows == 0 {
		o.maxRows = -1 // explicitly any, also with --safe
	}
	if o.readAhead < 0 {
		return nil, fmt.Errorf("--read-ahead %d: want a number of chunks from 0 to 64 (0 = off)", o.readAhead)
	}
	if fs.Changed("read-ahead") && o.readAhead == 0 {
		o.readAhead = -1 // explicitly off (0 in Config is automatic)
	}
	switch v, _ := fs.GetString("on-error"); strings.ToLower(v) {
	case "skip":
		o.onErrorSkip = true
	case "fail":
	default:
		return nil, fmt.Errorf("--on-error %q: want skip or fail", v)
	}
	if o.batch && o.interactive {
		return nil, errors.New("--batch and --interactive both given")
	}
	if o.noStdin && (o.init == "-" || slices.Contains(o.scripts, "-")) {
		return nil, errors.New("--no-stdin: stdin is not read, so - names no file for -f or -init")
	}
	// normalizeArgs spelt --csv, --json and --no-header as --mode and
	// --header: the last of them counts.
	if fs.Changed("mode") {
		o.given = append(o.given, "mode")
	}
	if fs.Changed("header") {
		o.given = append(o.given, "header")
	}
	for _, name := range []string{"null", "timer", "stats", "echo", "bail"} {
		if fs.Changed(name) {
			o.given = append(o.given, name)
		}
	}
	if err := splitArgs(o, fs.Args()); err != nil {
		return nil, err
	}
	if err := checkBinaryOutput(o); err != nil {
		return nil, err
	}
	return o, checkPartitionBy(o)
}

// binaryExts are the output extensions of the binary modes.
var binaryExts = map[string]string{".parquet": "parquet", ".pq": "parquet", ".arrows": "arrow", ".arrow": "arrow", ".feather": "arrow"}

// checkBinaryOutput refuses a --mode that contradicts the binary format
// -o's extension names (--mode arrow -o x.parquet would write an Arrow
// stream that Parquet readers then fail on, --mode csv text).
func checkBinaryOutput(o *options) error {
	want, ok := binaryExts[strings.ToLower(filepath.Ext(o.output))]
	mode := strings.ToLower(o.mode)
	if !ok || o.mode == "" || mode == want || len(o.partitionBy) > 0 {
		return nil
	}
	return fmt.Errorf("--mode %s does not write %s: drop --mode (the extension picks %s) or name the file for %s",
		o.mode, o.output, want, o.mode)
}

// checkPartitionBy checks that --partition-by comes with what it needs:
// Parquet, a directory given by -o and a single query.
func checkPartitionBy(o *options) error {
	if o.partitionBy != nil && len(o.partitionBy) == 0 { // --partition-by ""
		return errors.New("--partition-by: no column names (give one or more, comma-separated)")
	}
	if len(o.partitionBy) == 0 {
		return nil
	}
	for _, c := range o.partitionBy {
		if c == "" {
			return errors.New("--partition-by: an empty column name")
		}
	}
	switch {
	case o.output == "":
		return errors.New("--partition-by writes a directory: give it with -o DIR")
	case o.mode != "" && !strings.EqualFold(o.mode, "parquet"):
		return fmt.Errorf("--partition-by writes Parquet, not --mode %s", o.mode)
	case o.sql == "":
		return errors.New("--partition-by needs the query as the SQL argument")
	case len(o.commands) > 0 || len(o.scripts) > 0:
		return errors.New("--partition-by exports one query: -c and -f do not go with it")
	}
	switch strings.ToLower(filepath.Ext(o.output)) {
	case ".csv", ".json", ".jsonl", ".ndjson", ".md", ".markdown", ".tsv", ".tab", ".txt", ".arrows", ".arrow", ".feather":
		return fmt.Errorf("--partition-by writes Parquet files into a directory, not %s", o.output)
	}
	return nil
}

var aliasRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// splitArgs sorts the positional arguments into files and the SQL: the
// last argument is SQL unless it names an existing file, ends in .tet or
// is a glob (see isGlobArg); an empty or blank last argument is SQL that
// runs nothing, as in sqlite3. A glob argument ('era5/**/*.tet', quoted so
// that the shell leaves it alone) attaches every file it matches as one
// schema.
func splitArgs(o *options, args []string) error {
	if n := len(args); n > 0 && isSQL(args[n-1]) {
		o.sql, o.hasSQL, args = args[n-1], true, args[:n-1]
	}
	for _, a := range args {
		if a == "" { // not os.Stat's "stat : no such file or directory"
			return errors.New("an empty file name")
		}
		o.files = append(o.files, tetsql.SplitAlias(a))
	}
	return nil
}

// isSQL tells the trailing SQL argument from a file argument.
func isSQL(arg string) bool {
	path := arg
	if alias, p, ok := strings.Cut(arg, "="); ok && aliasRE.MatchString(alias) {
		path = p
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".tet", ".b2nd", ".tgm": // a file, also a missing one ("no such file")
		return false
	}
	if exists(arg) || exists(path) || isGlobArg(path) {
		return false
	}
	return true
}

// isGlobArg tells a trailing glob argument from SQL (SELECT * FROM t
// holds a '*' too): a glob has no white space and names a file format's
// extension or matches at least one path.
func isGlobArg(path string) bool {
	if !glob.HasMagic(path) || strings.ContainsAny(path, " \t\r\n;") {
		return false
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".tet", ".b2nd", ".tgm":
		return true
	}
	ms, err := glob.Expand(path, 1)
	return len(ms) > 0 || errors.Is(err, glob.ErrTooMany)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

const usageHead = `Usage: tetsql [flags] [ALIAS=]FILE.tet|'GLOB' ... [SQL]

Query .tet tensor files with SQL (SQLite). Each file is attached as a schema
named after the file (or ALIAS); with one file, tables need no qualifying.
A quoted glob ('era5/**/*.tet') attaches all the files it matches as ONE
schema, named after its directory (era5) or ALIAS: per dataset one table
over every file, with columns file and one per key=value directory.
SQL, -c and -f run and exit (non-zero on the first error): -c and -f in
the order given, then the SQL. Otherwise: an
interactive shell on a terminal, else a script read from stdin.
The options of sqlite3 and DuckDB's shell work with one dash or two
(-csv, -tabs, -noheader, -nullvalue TEXT, -batch, -s SQL, ...); those that
do not apply to tetsql are refused, saying why (docs/SQL.md lists them).
Of several mode flags (--mode, --csv, -tabs, ...) the last counts, and so
does the last of --header and --no-header.

Flags:
`

const usageTail = `
Examples:
  tetsql demo.tet                                     # interactive shell
  tetsql demo.tet "SELECT * FROM tet_datasets"        # csv when piped
  tetsql --stats demo.tet "SELECT avg(value) FROM temperature WHERE station = 3"
  tetsql -o temps.csv demo.tet "SELECT * FROM temperature"
  tetsql -c .datasets -c ".verify --deep" a=one.tet b=two.tet
  tetsql 'era5/**/*.tet' "SELECT year, month, avg(value) FROM t2m GROUP BY 1, 2"
  tetsql --on-error=skip 'runs/*/out.tet' "SELECT count(*) FROM t2m"
  echo "SELECT 1;" | tetsql
`

// writeUsage prints the help text.
func writeUsage(w io.Writer) {
	fs := newFlagSet(&options{})
	fmt.Fprint(w, usageHead)
	fmt.Fprint(w, fs.FlagUsagesWrapped(80))
	fmt.Fprint(w, usageTail)
	fmt.Fprintln(w, "\nDot commands (in the shell, in scripts and as -c; .help explains them):")
	line := ""
	for _, u := range repl.DotUsage() {
		if line != "" && len(line)+2+len(u) > 78 {
			fmt.Fprintln(w, line)
			line = ""
		}
		line += "  " + u
	}
	fmt.Fprintln(w, line)
	fmt.Fprintln(w, "\nExit status: 0 ok, 1 error, 2 usage error, 130 interrupted.")
}
