package tetsql

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
)

// ParquetOptions tune WriteParquet. The zero value writes zstd-compressed
// row groups of DefaultParquetRowGroupRows rows.
type ParquetOptions struct {
	// Compression is the codec of every column: "zstd" (the default when
	// empty), "snappy", "gzip" or "none".
	Compression string
	// RowGroupRows is the most rows in one row group (0 means
	// DefaultParquetRowGroupRows). A row group is held in memory, encoded
	// and compressed, until it is complete, so this bounds the memory an
	// export needs whatever the size of the result.
	RowGroupRows int64
	// MaxOpenFiles is the most files WriteParquetPartitioned keeps open
	// at once (0 means DefaultParquetMaxOpenFiles); WriteParquet ignores
	// it.
	MaxOpenFiles int
	// OnTempDir, if set, is called by WriteParquetPartitioned with the
	// path of its temporary directory as soon as it exists, so that a
	// program that may be killed (a signal) can remove it before exiting.
	OnTempDir func(path string)
	// Progress, if set, is called as rows are written with how many were
	// written since its previous call (for a progress line; it must be
	// cheap: the ordinary path calls it for every row).
	Progress func(rows int64)
}

// progress is o.Progress, or a function that does nothing.
func (o ParquetOptions) progress() func(int64) {
	if o.Progress != nil {
		return o.Progress
	}
	return func(int64) {}
}

// DefaultParquetRowGroupRows is the row group size WriteParquet uses when
// ParquetOptions.RowGroupRows is 0.
const DefaultParquetRowGroupRows = 1 << 20

// ParquetCompressions are the names ParquetOptions.Compression accepts
// (case-insensitive; "" means zstd).
var ParquetCompressions = []string{"zstd", "snappy", "gzip", "none"}

// ParquetInferRows is the most rows WriteParquet reads (and holds) to
// find the first non-NULL value of a column without a declared type.
const ParquetInferRows = 1 << 16

// parquetBatch is how many rows are handed to the Parquet writer at once.
const parquetBatch = 256

// ErrParquetType is wrapped by the error of WriteParquet when a value does
// not fit the Parquet type of its column (say, a REAL in a column whose
// type was inferred as INT64 from its first value).
var ErrParquetType = errors.New("value does not fit the column's Parquet type")

// WriteParquet writes the rows as one Parquet file to w and returns how
// many rows it wrote. It reads rows to the end but does not close them.
//
// Column types come from the declared SQL types (ColumnType's
// DatabaseTypeName), following SQLite's affinity rules: exactly FLOAT32
// or FLOAT16 (a tetsql f32/f16 value column) → FLOAT, other REAL/FLOA/DOUB
// types (FLOAT among them: SQLite's double) → DOUBLE,
// INT8/INT16/INT32/UINT8/UINT16/UINT32/UINT64 (a tetsql integer value
// column, named by its dtype's bits) → INT32 or INT64 with the INT(bits,
// signed) logical type, other INT types → INT64, CHAR/CLOB/TEXT types →
// STRING, BLOB → BYTE_ARRAY. Columns with no declared type (expressions) or a NUMERIC
// one take their type from their first non-NULL value (INTEGER → INT64,
// REAL → DOUBLE, TEXT → STRING, BLOB → BYTE_ARRAY, a boolean → BOOLEAN);
// a column NULL in its first ParquetInferRows rows (or in the whole
// first row group, if smaller) is STRING. A later value
// that does not fit its column is an error wrapping ErrParquetType that
// names the column and row: no value is ever silently changed. Every
// column is optional, NULL being a Parquet null. Duplicate column names
// get a suffix (a, a_2) since Parquet needs unique names.
//
// Rows are written row group by row group; only rows read while a
// column type is still unknown are buffered (at most ParquetInferRows). Data
// pages are version 1, which every Parquet reader understands (older
// Spark, Hive and pyarrow releases read no v2 pages).
//
// On error what was written to w is not a valid Parquet file; write to
// a temporary file and rename it on success.
func WriteParquet(w io.Writer, rows *sql.Rows, opts ParquetOptions) (n int64, err error) {
	codec, groupRows, err := opts.settings()
	if err != nil {
		return 0, err
	}
	names, decls, err := columnInfo(rows)
	if err != nil {
		return 0, err
	}
	cols := newParquetColumns(names, decls)
	var f *parquetFile
	progress := opts.progress()
	err = scanResultRows(rows, cols, groupRows, "parquet", func() error {
		f = newParquetFile(w, cols, allColumns(len(cols)), codec, groupRows)
		return nil
	}, func(vals []any) error {
		if err := f.write(vals, n+1); err != nil {
			return err
		}
		n++
		progress(1)
		return nil
	})
	if err != nil {
		return n, err
	}
	return n, f.close()
}

// settings are the codec and row-group size of o, defaults applied.
func (o ParquetOptions) settings() (compress.Codec, int64, error) {
	codec, err := parquetCodec(o.Compression)
	if err != nil {
		return nil, 0, err
	}
	groupRows := o.RowGroupRows
	if groupRows <= 0 {
		groupRows = DefaultParquetRowGroupRows
	}
	return codec, groupRows, nil
}

// allColumns is 0, 1, …, n-1: a file holding every result column.
func allColumns(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// parquetCodec returns the codec named by ParquetOptions.Compression.
func parquetCodec(name string) (compress.Codec, error) {
	switch strings.ToLower(name) {
	case "", "zstd":
		return &parquet.Zstd, nil
	case "snappy":
		return &parquet.Snappy, nil
	case "gzip":
		return &parquet.Gzip, nil
	case "none", "uncompressed":
		return &parquet.Uncompressed, nil
	}
	return nil, fmt.Errorf("parquet: unknown compression %q (valid: zstd, snappy, gzip, none)", name)
}
