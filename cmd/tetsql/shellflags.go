package main

import (
	"strings"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// shellFlag is one of the command-line options of sqlite3 (3.40, with
// its undocumented ones) and DuckDB's shell that is not a tetsql flag
// of the same name: either the tetsql arguments it stands for, or why
// tetsql refuses it. Both shells read an option with one dash or two
// alike, and so does tetsql. The options that are tetsql flags of the
// same name (-csv, -json, -header, -bail, -echo, -init, -cmd, -safe,
// -stats, -batch, -interactive, -no-stdin, -readonly, -version, -help,
// -c, -f) need no entry.
type shellFlag struct {
	args  []string // the tetsql flag it stands for; empty: accepted, no effect
	value bool     // it takes the next argument as its value
	why   string   // not "": refused, for this reason
}

// modeList names tetsql's output modes for the refusal of a mode it
// does not have.
func modeList() string {
	var names []string
	for _, m := range output.Modes() {
		names = append(names, m.String())
	}
	return strings.Join(append(names, output.Parquet.String(), output.Arrow.String()), " ")
}

// The reasons shared by several refused options.
var (
	noStorage = "sqlite3 storage options do not apply to tetsql (it reads .tet, Blosc2 and Tensogram files, never writes them)"
	noMemory  = "sqlite3 memory options do not apply to tetsql; its own limits are --mem-limit, --cache-budget and --max-chunk-bytes"
	noSep     = "tetsql's modes have fixed separators: use --mode csv (comma), tsv (tab) or list (|)"
)

// noMode is the refusal of a mode tetsql does not have.
func noMode(mode string) string {
	return "tetsql has no " + mode + " mode (modes: " + modeList() + ")"
}

// shellFlags are the options of sqlite3 and DuckDB by name (without
// dashes).
var shellFlags = map[string]shellFlag{
	// Modes and their settings.
	"line": {args: []string{"--mode=line"}}, "list": {args: []string{"--mode=list"}},
	"box": {args: []string{"--mode=box"}}, "table": {args: []string{"--mode=table"}},
	"column": {args: []string{"--mode=column"}}, "markdown": {args: []string{"--mode=markdown"}},
	"tabs":      {args: []string{"--mode=tsv"}},   // sqlite3's tabs: tab-separated, as tsv
	"jsonlines": {args: []string{"--mode=jsonl"}}, // DuckDB's
	"noheader":  {args: []string{"--no-header"}},
	"nullvalue": {args: []string{"--null"}, value: true},
	"scanstats": {args: []string{"--stats"}},                // sqlite3's per-scan counters: tetsql's are --stats
	"s":         {args: []string{"--command"}, value: true}, // DuckDB's -s COMMAND, as -c
	"html":      {why: noMode("html")},
	"quote":     {why: noMode("quote")},
	"ascii":     {why: noMode("ascii")},
	"separator": {why: noSep},
	"newline":   {why: noSep},
	// Storage: how SQLite opens and keeps a database file.
	"vfs": {why: noStorage}, "zip": {why: noStorage}, "deserialize": {why: noStorage},
	"maxsize": {why: noStorage}, "append": {why: noStorage}, "nofollow": {why: noStorage},
	"mmap": {why: noStorage}, "storage-version": {why: noStorage},
	// SQLite's memory allocators.
	"lookaside": {why: noMemory}, "pagecache": {why: noMemory}, "heap": {why: noMemory},
	"memtrace": {why: noMemory}, "threadsafe": {why: noMemory},
	// sqlite3's build-dependent ones: a sorter threshold and a VFS.
	"sorterref": {why: noMemory}, "multiplex": {why: noStorage},
	// The rest.
	"A":          {why: "tetsql reads no SQLite archives (sqlite3's .archive)"},
	"nonce":      {why: "tetsql's --safe has no escape: safe mode cannot be lifted from SQL"},
	"eqp":        {why: "tetsql prints no automatic query plans: put EXPLAIN QUERY PLAN before the statement"},
	"eqpfull":    {why: "tetsql prints no automatic query plans: put EXPLAIN or EXPLAIN QUERY PLAN before the statement"},
	"backslash":  {why: "tetsql reads SQL as written, without backslash escapes"},
	"unsigned":   {why: "tetsql loads no extensions"},
	"ui":         {why: "tetsql has no web UI"},
	"dark-mode":  {why: "tetsql does not colour SQL"},
	"light-mode": {why: "tetsql does not colour SQL"},
	// DuckDB's: agent mode prints compact Markdown tables (DuckDB's
	// have each column's type in the header, tetsql's do not); -no-agent
	// turns it off, and tetsql never turns it on by itself.
	"agent":       {args: []string{"--mode=markdown"}},
	"no-agent":    {},
	"unredacted":  {why: "tetsql keeps no secrets to redact (DuckDB's CREATE SECRET)"},
	"connect":     {why: "tetsql connects to no remote database: it reads local .tet, Blosc2 and Tensogram files"},
	"format":      {why: "tetsql does not format SQL"},
	"format-file": {why: "tetsql does not format SQL"},
}
