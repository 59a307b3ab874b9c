module github.com/tetsql/tetsql

go 1.26.8

require (
	// tetcore: memory-maps .tet files read-only.
	github.com/edsrzf/mmap-go v1.2.0
	// tetcore: zstd chunk decoding (one shared decoder) and encoding.
	github.com/klauspost/compress v1.20.3
	// cmd/tetsql/internal/repl: line editing and history for the interactive shell.
	github.com/peterh/liner v1.2.3
	// cmd/tetsql, cmd/tetgen: command-line flags.
	github.com/spf13/pflag v1.0.10
	// internal/fold: CPU feature detection (AVX2, FMA) for the vector
	// kernels; already required by x/term.
	golang.org/x/sys v0.49.0
	// cmd/tetsql and its internal/repl: terminal detection and size.
	golang.org/x/term v0.47.0
	// vtab and the root driver: SQLite in pure Go, with its vtab package.
	modernc.org/sqlite v1.61.1
	// vtab: the direct SQLite binding (bind_direct*.go) calls
	// modernc.org/sqlite/lib, whose functions take a *libc.TLS.
	modernc.org/libc v1.79.0
)

require (
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/dustin/go-humanize v1.1.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/mattn/go-runewidth v0.0.31 // indirect
	github.com/ncruces/go-strftime v1.1.0 // indirect
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/memory v1.12.1 // indirect
)
