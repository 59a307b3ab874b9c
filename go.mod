module github.com/tetsql/tetsql

go 1.26.8

require (
	// root package (WriteArrow, WriteArrowFile): Arrow IPC stream and
	// file output, the Apache Arrow project's own pure-Go library, so
	// that every Arrow reader (pyarrow, polars, DuckDB, Spark) agrees.
	github.com/apache/arrow-go/v18 v18.8.0
	// tetcore: memory-maps .tet files read-only.
	github.com/edsrzf/mmap-go v1.2.0
	// tgm: Tensogram metadata, descriptors, index and hash frames are
	// CBOR; a reader must accept any well-formed CBOR, canonical or not.
	github.com/fxamacker/cbor/v2 v2.10.0
	// tetcore: zstd chunk decoding (one shared decoder) and encoding;
	// internal/codec/blosc: the zstd and zlib streams of Blosc2 chunks
	// (its inflate is faster than compress/flate's on a bytes.Reader).
	github.com/klauspost/compress v1.20.3
	// root package (WriteParquet): Parquet output; a small, fast, pure-Go
	// writer that lets us choose the data page version, row group size
	// and codec.
	github.com/parquet-go/parquet-go v0.32.0
	// cmd/tetsql/internal/repl: line editing and history for the interactive shell.
	github.com/peterh/liner v1.2.3
	// internal/codec/blosc: LZ4 block decoding for Blosc2 chunks, a
	// well-kept pure-Go library.
	github.com/pierrec/lz4/v4 v4.1.33
	// cmd/tetsql, cmd/tetgen: command-line flags.
	github.com/spf13/pflag v1.0.10
	// tgm: Tensogram frames carry xxh3-64 hashes of their bodies.
	github.com/zeebo/xxh3 v1.1.0
	// internal/fold: CPU feature detection (AVX2, FMA) for the vector
	// kernels; already required by x/term.
	golang.org/x/sys v0.49.0
	// cmd/tetsql and its internal/repl: terminal detection and size.
	golang.org/x/term v0.47.0
	// internal/sqlitevt: the functions of modernc.org/sqlite/lib take a
	// *libc.TLS.
	modernc.org/libc v1.79.0
	// vtab and the root driver: SQLite in pure Go (its database/sql
	// driver); internal/sqlitevt binds its C API, modernc.org/sqlite/lib.
	modernc.org/sqlite v1.61.1
)

require (
	github.com/andybalholm/brotli v1.2.3 // indirect
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/dustin/go-humanize v1.1.0 // indirect
	github.com/goccy/go-json v0.10.6 // indirect
	github.com/google/flatbuffers v25.12.19+incompatible // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/cpuid/v2 v2.4.0 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/mattn/go-runewidth v0.0.31 // indirect
	github.com/ncruces/go-strftime v1.1.0 // indirect
	github.com/parquet-go/bitpack v1.0.0 // indirect
	github.com/parquet-go/jsonlite v1.0.0 // indirect
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	github.com/twpayne/go-geom v1.6.1 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/exp v0.0.0-20260112195511-716be5621a96 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/memory v1.12.1 // indirect
)
