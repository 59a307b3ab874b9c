package tetsql

import (
	"container/list"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DefaultParquetMaxOpenFiles is the cap on open files of
// WriteParquetPartitioned when ParquetOptions.MaxOpenFiles is 0.
const DefaultParquetMaxOpenFiles = 64

// MinPartitionRowGroupRows is the least default row group size of
// WriteParquetPartitioned (see its doc).
const MinPartitionRowGroupRows = 1 << 14

// HiveNullPartition is the directory value of a NULL (or empty text)
// partition value, as Hive, Spark and DuckDB name it.
const HiveNullPartition = "__HIVE_DEFAULT_PARTITION__"

// ErrOutputExists is wrapped by the error of WriteParquetPartitioned
// when its directory exists and is not empty.
var ErrOutputExists = errors.New("output directory exists and is not empty")

// WriteParquetPartitioned writes the rows as a hive-partitioned Parquet
// dataset in dir: dir/c1=v1/c2=v2/part-N.parquet for the partition
// columns by (in that order), which are left out of the files since
// readers (DuckDB, Spark, pyarrow, polars) take them from the paths. It
// returns how many files and rows it wrote, reads rows to the end and
// does not close them.
//
// Every file has the same schema, inferred once as WriteParquet does.
// Rows may come in any order. At most opts.MaxOpenFiles files are open
// at once: when a row needs another partition's file and the cap is
// reached, the least recently used file is finished, and a later row of
// its partition starts the next part (part-0, part-1, …). Each open file
// holds at most one row group, which bounds memory: opts.RowGroupRows
// rows, by default DefaultParquetRowGroupRows / MaxOpenFiles but at
// least MinPartitionRowGroupRows (16Ki rows for the default 64 files).
// Rows in no order over many partitions make many small files; ORDER BY
// the partition columns makes one file per partition.
//
// Partition values are written as text (integers in decimal, reals in
// the shortest form that reads back exactly, BLOBs as their bytes) and
// escaped as Hive escapes path names: control characters and
// " # % ' * / : = ? \ { [ ] ^ and DEL become %XX (upper-case hex); column
// names are escaped the same way. A NULL or empty text value is
// HiveNullPartition, so readers see NULL.
//
// Everything is written into a temporary directory beside dir that is
// renamed to dir on success and removed on any failure, so a failed
// query leaves nothing. dir must not exist or be empty (an error
// wrapping ErrOutputExists otherwise); every column of by must be in
// the result, and at least one column must be left for the files.
func WriteParquetPartitioned(dir string, rows *sql.Rows, by []string, opts ParquetOptions) (files int, n int64, err error) {
	codec, err := parquetCodec(opts.Compression)
	if err != nil {
		return 0, 0, err
	}
	dir = filepath.Clean(dir) // "out/" has its temporary beside it too
	maxOpen := opts.MaxOpenFiles
	if maxOpen <= 0 {
		maxOpen = DefaultParquetMaxOpenFiles
	}
	groupRows := opts.RowGroupRows
	if groupRows <= 0 { // the open files share what one WriteParquet holds
		groupRows = max(DefaultParquetRowGroupRows/int64(maxOpen), MinPartitionRowGroupRows)
	}
	cts, err := rows.ColumnTypes()
	if err != nil {
		return 0, 0, fmt.Errorf("parquet: %w", err)
	}
	names, decls, err := columnInfo(rows)
	if err != nil {
		return 0, 0, err
	}
	cols := newParquetColumns(names, decls)
	part, idx, err := partitionColumns(cts, by)
	if err != nil {
		return 0, 0, err
	}
	for _, i := range part {
		cols[i].kind = pqString // not written: no type to infer
	}
	if err := checkOutputDir(dir); err != nil {
		return 0, 0, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return 0, 0, fmt.Errorf("parquet: %w", err)
	}
	// MkdirTemp makes it 0700, but the dataset is for others to read too
	// (a Spark executor of another account): made again by os.Mkdir, it
	// gets 0777 less the umask, like every directory inside it.
	if err := os.Remove(tmp); err != nil {
		return 0, 0, fmt.Errorf("parquet: %w", err)
	}
	if err := os.Mkdir(tmp, 0o777); err != nil {
		return 0, 0, fmt.Errorf("parquet: %w", err)
	}
	if opts.OnTempDir != nil {
		opts.OnTempDir(tmp)
	}
	p := &partitioner{root: tmp, cols: cols, idx: idx, codec: codec, groupRows: groupRows,
		maxOpen: maxOpen, open: map[string]*list.Element{}, parts: map[string]int{}, lru: list.New()}
	defer func() {
		if err != nil {
			p.abort()
			os.RemoveAll(tmp)
		}
	}()
	var key strings.Builder
	progress := opts.progress()
	err = scanResultRows(rows, cols, groupRows, "parquet", func() error { return nil }, func(vals []any) error {
		key.Reset()
		for k, i := range part {
			if k > 0 {
				key.WriteByte('/')
			}
			key.WriteString(hiveEscape(cts[i].Name()))
			key.WriteByte('=')
			key.WriteString(hivePartitionValue(vals[i]))
		}
		f, err := p.file(key.String())
		if err != nil {
			return err
		}
		if err := f.write(vals, n+1); err != nil {
			return err
		}
		n++
		progress(1)
		return nil
	})
	if err != nil {
		return p.files, n, err
	}
	if err := p.closeAll(); err != nil {
		return p.files, n, err
	}
	// An empty dir is replaced (os.Rename refuses an existing directory;
	// os.Remove refuses one that has meanwhile got files).
	if err := os.Remove(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return p.files, n, fmt.Errorf("parquet: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return p.files, n, fmt.Errorf("parquet: %w", err)
	}
	return p.files, n, nil
}

// partitionColumns returns the result indexes of the partition columns
// by and of the columns left for the files.
func partitionColumns(cts []*sql.ColumnType, by []string) (part, rest []int, err error) {
	if len(by) == 0 {
		return nil, nil, errors.New("parquet: no partition columns")
	}
	pos := map[string]int{}
	names := make([]string, len(cts))
	for i := len(cts) - 1; i >= 0; i-- { // the first of duplicate names wins
		pos[cts[i].Name()] = i
		names[i] = cts[i].Name()
	}
	isPart := make([]bool, len(cts))
	for _, b := range by {
		i, ok := pos[b]
		if !ok {
			return nil, nil, fmt.Errorf("parquet: partition column %q is not in the result (columns: %s)", b, strings.Join(names, ", "))
		}
		if isPart[i] {
			return nil, nil, fmt.Errorf("parquet: partition column %q given twice", b)
		}
		isPart[i] = true
		part = append(part, i)
	}
	for i := range cts {
		if !isPart[i] {
			rest = append(rest, i)
		}
	}
	if len(rest) == 0 {
		return nil, nil, errors.New("parquet: every column is a partition column: the files would have none")
	}
	return part, rest, nil
}

// checkOutputDir refuses a dir that exists and is not an empty directory.
func checkOutputDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("parquet: %w", err)
	case !st.IsDir():
		return fmt.Errorf("parquet: %s: %w (it is a file)", dir, ErrOutputExists)
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	defer d.Close()
	if _, err := d.Readdirnames(1); err != io.EOF {
		if err != nil {
			return fmt.Errorf("parquet: %s: %w", dir, err)
		}
		return fmt.Errorf("parquet: %s: %w", dir, ErrOutputExists)
	}
	return nil
}

// hivePartitionValue is v as a partition directory value, escaped.
func hivePartitionValue(v any) string {
	var s string
	switch x := v.(type) {
	case nil:
		return HiveNullPartition
	case int64:
		s = strconv.FormatInt(x, 10)
	case float64:
		s = strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		s = x
	case []byte:
		s = string(x)
	case bool:
		s = strconv.FormatBool(x)
	case time.Time:
		s = x.Format(time.RFC3339Nano)
	default:
		s = fmt.Sprint(x)
	}
	if s == "" {
		return HiveNullPartition
	}
	return hiveEscape(s)
}

// hiveEscape percent-encodes what Hive's FileUtils.escapePathName
// encodes (and NUL), so the value is one safe path element.
func hiveEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte("\"#%'*/:=?\\{[]^", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
