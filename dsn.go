package tetsql

import (
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Config configures a connector: the files to attach and options.
type Config struct {
	// Files to attach, in order.
	Files []FileSpec
	// MaxChunkBytes caps the decoded size of any one chunk a query of
	// this database reads (0 = default, 256 MiB). The connector's tables
	// enforce it themselves, also on a file another database opened
	// first.
	MaxChunkBytes int64
	// ReadAhead is how many planned chunks a scan decodes ahead of the
	// one it reads, on other goroutines (at most MaxReadAhead). A scan
	// then holds up to ReadAhead+1 decoded chunks in memory. 0 = the
	// default, automatic: a scan over more than one chunk of a dataset
	// whose chunks must be decoded (compressed, not mapped in place)
	// reads 2 chunks ahead per decoding goroutine, min(GOMAXPROCS, 4) of
	// them, within ReadAheadBytes; negative = off. (The DSN option
	// read_ahead=0 and the shell's --read-ahead 0 mean off.) Scans with
	// a pushed-down LIMIT never read ahead.
	ReadAhead int
	// ReadAheadBytes bounds the decoded bytes one scan reads ahead (0 =
	// default, 256 MiB): with large chunks a scan reads fewer than
	// ReadAhead chunks ahead, and none when one chunk exceeds it.
	ReadAheadBytes int64
	// DecodeParallelism is how many goroutines per scan decode ahead
	// (0 = min(ReadAhead, GOMAXPROCS), or min(GOMAXPROCS, 4) with
	// automatic read-ahead, which then reads 2×DecodeParallelism chunks
	// ahead); it must not exceed a ReadAhead that is set, and read-ahead
	// must not be off.
	DecodeParallelism int
	// CacheBudget gives each file a cache of decoded zstd chunks of up to
	// this many bytes, shared by all connections and statements, least
	// recently used out, so that repeated selective queries on compressed
	// data (a day's map fetched again, a point series) skip the decode.
	// 0 = the default, DefaultCacheBudget; negative = no cache. (The DSN
	// option cache_budget=0 and the shell's --cache-budget 0 mean no
	// cache.) The memory is taken only as chunks are decoded; raw chunks
	// are never cached. With several databases on one file the largest
	// budget applies.
	CacheBudget int64
	// TimeLabels delivers the label columns whose labels are all ISO 8601
	// dates or timestamps as time.Time (UTC unless the label has a zone),
	// so that rows.Scan can fill a *time.Time; such a column then scans
	// into a *string as RFC 3339, not as the label's text. Off by default.
	// The SQL meaning of the columns does not change: they stay TEXT.
	TimeLabels bool
	// NoAggRewrite turns off answering aggregate queries over a cells
	// table (SELECT time, avg(value) FROM t GROUP BY time) from its _agg
	// companion; they then run row by row through SQLite, as written.
	NoAggRewrite bool
	// MemLimit bounds the buffers one query may ask of tetsql (an
	// aggregate's groups and chunk list, a metadata table's rows); 0 =
	// the default, vtab.DefaultMemLimit (1 GiB). A query needing more
	// fails before allocating, with an error matching vtab.ErrMemLimit.
	MemLimit int64
	// Safe makes the connections safe for SQL from untrusted users: only
	// statements that read the attached files are allowed, anything that
	// could write a file, open another path, load code or change the
	// schema fails with an error matching ErrNotAllowed ("not allowed in
	// safe mode: ATTACH"); SQLite's own limits are lowered; and the limits
	// below default to SafeStatementTimeout, SafeMaxRows and SafeMemLimit.
	Safe bool
	// StatementTimeout bounds how long one statement may run, from its
	// start until its rows are closed (0 = the default: none, or
	// SafeStatementTimeout in safe mode; negative = none). Past it the
	// statement fails with a *TimeLimitError (errors.Is ErrTimeLimit and
	// context.DeadlineExceeded); the connection stays usable.
	StatementTimeout time.Duration
	// MaxRows bounds the rows one result may have (0 = the default: any,
	// or SafeMaxRows in safe mode; negative = any). Reading a row past it
	// fails with a *MaxRowsError (errors.Is ErrMaxRows).
	MaxRows int64
	// OnErrorSkip makes a glob's files that cannot be read (or whose
	// dataset does not fit the others) skipped with a warning and counted
	// in the scan statistics, instead of failing the statement (DSN
	// option on_error=skip; the default is on_error=fail).
	OnErrorSkip bool
	// Warn receives the warnings of the connector's connections (a file
	// a glob matched skipped under OnErrorSkip), one line each without a
	// trailing newline; nil writes "tetsql: warning: ..." lines to
	// standard error. Each distinct line comes once per connector (not
	// again from another pooled connection or a later scan; the scan
	// statistics still count every skipped file). It may be called from
	// several goroutines at once.
	Warn func(msg string)
}

// DefaultCacheBudget is the decoded-chunk cache each file gets when
// Config.CacheBudget is 0: 256 MiB, 34 chunks of 30×181×360 f32 (a
// month of 1° global days each, so two years of them), enough to keep
// the chunks a session keeps returning to without decoding them again.
// A fixed size, not a fraction of RAM, so that the same query does the
// same work everywhere; memory is taken only as chunks are decoded.
const DefaultCacheBudget = 256 << 20

// cacheBudget is the budget a file is given: the default for 0, none
// (0 to the source) for a negative value.
func (c Config) cacheBudget() int64 {
	switch {
	case c.CacheBudget == 0:
		return DefaultCacheBudget
	case c.CacheBudget < 0:
		return 0
	}
	return c.CacheBudget
}

// explicitCacheBudget maps a size given by a user (DSN, shell flag), where
// 0 means "no cache", to Config.CacheBudget, where 0 means the default.
func explicitCacheBudget(n int64) int64 {
	if n == 0 {
		return -1
	}
	return n
}

// MaxReadAhead is the largest accepted ReadAhead.
const MaxReadAhead = 64

// validate checks the options (not the files).
func (c Config) validate() error {
	switch {
	case c.MaxChunkBytes < 0:
		return fmt.Errorf("tetsql: MaxChunkBytes %d is negative", c.MaxChunkBytes)
	case c.ReadAhead > MaxReadAhead:
		return fmt.Errorf("tetsql: read_ahead %d: want at most %d chunks", c.ReadAhead, MaxReadAhead)
	case c.ReadAheadBytes < 0:
		return fmt.Errorf("tetsql: read_ahead_bytes %d is negative", c.ReadAheadBytes)
	case c.MemLimit < 0:
		return fmt.Errorf("tetsql: mem_limit %d is negative", c.MemLimit)
	case c.DecodeParallelism < 0:
		return fmt.Errorf("tetsql: decode_parallelism %d is negative", c.DecodeParallelism)
	case c.DecodeParallelism > MaxReadAhead:
		return fmt.Errorf("tetsql: decode_parallelism %d: want at most %d goroutines", c.DecodeParallelism, MaxReadAhead)
	case c.DecodeParallelism > 0 && c.ReadAhead < 0:
		return fmt.Errorf("tetsql: decode_parallelism=%d needs read-ahead (read_ahead=0 turns it off)", c.DecodeParallelism)
	case c.ReadAhead > 0 && c.DecodeParallelism > c.ReadAhead:
		return fmt.Errorf("tetsql: decode_parallelism=%d exceeds read_ahead=%d: at most read_ahead chunks are decoded at once", c.DecodeParallelism, c.ReadAhead)
	}
	return nil
}

// FileSpec is one file and the schema name it is attached as.
type FileSpec struct {
	Alias string // schema name; "" = derived from the file name
	Path  string
}

// ParseDSN parses a DSN (see the package documentation) into a Config.
func ParseDSN(dsn string) (Config, error) {
	var cfg Config
	files, query, _ := strings.Cut(dsn, "?")
	for _, part := range strings.Split(files, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		cfg.Files = append(cfg.Files, SplitAlias(part))
	}
	if query != "" {
		vals, err := url.ParseQuery(query)
		if err != nil {
			return cfg, fmt.Errorf("tetsql: DSN options %q: %v", query, err)
		}
		for k, v := range vals {
			if len(v) != 1 {
				return cfg, fmt.Errorf("tetsql: DSN option %s given %d times", k, len(v))
			}
			switch k {
			case "max_chunk_bytes":
				n, err := ParseSize(v[0])
				if err != nil || n < 1 {
					return cfg, fmt.Errorf("tetsql: DSN option max_chunk_bytes=%q: want a positive size such as 256MiB", v[0])
				}
				cfg.MaxChunkBytes = n
			case "read_ahead":
				n, err := strconv.Atoi(strings.TrimSpace(v[0]))
				if err != nil || n < 0 || n > MaxReadAhead {
					return cfg, fmt.Errorf("tetsql: DSN option read_ahead=%q: want a number of chunks from 0 to %d", v[0], MaxReadAhead)
				}
				cfg.ReadAhead = n
				if n == 0 {
					cfg.ReadAhead = -1 // explicitly off: 0 in Config is automatic
				}
			case "read_ahead_bytes":
				n, err := ParseSize(v[0])
				if err != nil || n < 1 {
					return cfg, fmt.Errorf("tetsql: DSN option read_ahead_bytes=%q: want a positive size such as 256MiB", v[0])
				}
				cfg.ReadAheadBytes = n
			case "decode_parallelism":
				n, err := strconv.Atoi(strings.TrimSpace(v[0]))
				if err != nil || n < 1 {
					return cfg, fmt.Errorf("tetsql: DSN option decode_parallelism=%q: want a positive number of goroutines", v[0])
				}
				cfg.DecodeParallelism = n
			case "cache_budget":
				n, err := ParseSize(v[0])
				if err != nil || n < 0 {
					return cfg, fmt.Errorf("tetsql: DSN option cache_budget=%q: want a size such as 256MiB (0 = no cache)", v[0])
				}
				cfg.CacheBudget = explicitCacheBudget(n)
			case "time_labels":
				b, err := strconv.ParseBool(strings.TrimSpace(v[0]))
				if err != nil {
					return cfg, fmt.Errorf("tetsql: DSN option time_labels=%q: want true or false", v[0])
				}
				cfg.TimeLabels = b
			case "agg_rewrite":
				b, err := strconv.ParseBool(strings.TrimSpace(v[0]))
				if err != nil {
					return cfg, fmt.Errorf("tetsql: DSN option agg_rewrite=%q: want true or false", v[0])
				}
				cfg.NoAggRewrite = !b
			case "mem_limit":
				n, err := ParseSize(v[0])
				if err != nil || n < 1 {
					return cfg, fmt.Errorf("tetsql: DSN option mem_limit=%q: want a positive size such as 4GiB", v[0])
				}
				cfg.MemLimit = n
			case "safe":
				b, err := strconv.ParseBool(strings.TrimSpace(v[0]))
				if err != nil {
					return cfg, fmt.Errorf("tetsql: DSN option safe=%q: want 1 or 0 (true or false)", v[0])
				}
				cfg.Safe = b
			case "statement_timeout":
				d, err := ParseTimeout(v[0])
				if err != nil {
					return cfg, fmt.Errorf("tetsql: DSN option statement_timeout=%q: want a duration such as 30s (0 = none)", v[0])
				}
				cfg.StatementTimeout = d
			case "on_error":
				switch strings.ToLower(strings.TrimSpace(v[0])) {
				case "skip":
					cfg.OnErrorSkip = true
				case "fail":
					cfg.OnErrorSkip = false
				default:
					return cfg, fmt.Errorf("tetsql: DSN option on_error=%q: want skip or fail", v[0])
				}
			case "max_rows":
				n, err := strconv.ParseInt(strings.TrimSpace(v[0]), 10, 64)
				if err != nil || n < 0 {
					return cfg, fmt.Errorf("tetsql: DSN option max_rows=%q: want a number of rows (0 = any)", v[0])
				}
				if n == 0 {
					n = -1 // explicitly none, also in safe mode
				}
				cfg.MaxRows = n
			default:
				return cfg, fmt.Errorf("tetsql: unknown DSN option %q (known: %s)", k, strings.Join(knownOptions, ", "))
			}
		}
	}
	if err := cfg.validate(); err != nil {
		return cfg, err
	}
	return cfg, nil
}

var knownOptions = []string{"max_chunk_bytes", "read_ahead", "read_ahead_bytes", "decode_parallelism", "cache_budget", "time_labels", "agg_rewrite", "mem_limit", "safe", "statement_timeout", "max_rows", "on_error"}

// ParseTimeout reads a statement time limit such as 30s, 2m or 1m30s
// (Go duration syntax; a bare number is seconds). 0 means none and is
// returned as -1, which Config reads as "explicitly none" (also in safe
// mode).
func ParseTimeout(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	if err != nil {
		n, nerr := strconv.ParseFloat(s, 64)
		if nerr != nil || !(n >= 0) || n > float64(1<<62)/1e9 {
			return 0, fmt.Errorf("tetsql: bad duration %q", s)
		}
		d = time.Duration(n * float64(time.Second))
	}
	if d < 0 {
		return 0, fmt.Errorf("tetsql: negative duration %q", s)
	}
	if d == 0 {
		return -1, nil
	}
	return d, nil
}

var validAlias = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

var sizeUnits = []struct {
	suffix string
	mul    int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}

// ParseSize reads a byte size such as 512, 64KiB, 256MiB or 2GB.
func ParseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mul := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(s, u.suffix) {
			s, mul = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mul
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || (n > 0 && mul > (1<<63-1)/n) {
		return 0, fmt.Errorf("tetsql: bad size %q", s)
	}
	return n * mul, nil
}

// Aliases returns the schema name of every file: the explicit alias, or
// the base name without .tet reduced to [A-Za-z0-9_] (a leading digit
// gets "t_"; clashes get _2, _3, …); for a glob, GlobAlias.
func (c Config) Aliases() ([]string, error) {
	used := map[string]bool{"main": true, "temp": true}
	out := make([]string, len(c.Files))
	for i, f := range c.Files {
		if f.Alias != "" {
			if !validAlias.MatchString(f.Alias) {
				return nil, fmt.Errorf("tetsql: alias %q: use letters, digits and _", f.Alias)
			}
			if used[strings.ToLower(f.Alias)] {
				return nil, fmt.Errorf("tetsql: alias %q used twice", f.Alias)
			}
			used[strings.ToLower(f.Alias)] = true
			out[i] = f.Alias
		}
	}
	for i, f := range c.Files {
		if out[i] != "" {
			continue
		}
		base := DefaultAlias(f.Path)
		if f.IsGlob() {
			base = GlobAlias(f.Path)
		}
		name := base
		for n := 2; used[strings.ToLower(name)]; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		used[strings.ToLower(name)] = true
		out[i] = name
	}
	return out, nil
}

// DefaultAlias derives a schema name from a file path: its name without
// the extension (.tet, .b2nd, ...), reduced to letters, digits and _.
func DefaultAlias(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // "." and ".." name the directories they are
	}
	base := filepath.Base(path)
	return reduceName(strings.TrimSuffix(base, filepath.Ext(base)))
}
