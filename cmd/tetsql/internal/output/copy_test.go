package output_test

import (
	"bytes"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// A minimal database/sql driver serving streamRows for any query.
type fakeDriver struct{}
type fakeConn struct{}
type fakeStmt struct{}
type fakeRows struct{ next int }

func init() { sql.Register("output-fake", fakeDriver{}) }

func (fakeDriver) Open(string) (driver.Conn, error)         { return fakeConn{}, nil }
func (fakeConn) Prepare(string) (driver.Stmt, error)        { return fakeStmt{}, nil }
func (fakeConn) Close() error                               { return nil }
func (fakeConn) Begin() (driver.Tx, error)                  { return nil, errors.New("no transactions") }
func (fakeStmt) Close() error                               { return nil }
func (fakeStmt) NumInput() int                              { return 0 }
func (fakeStmt) Exec([]driver.Value) (driver.Result, error) { return nil, errors.New("read-only") }
func (fakeStmt) Query([]driver.Value) (driver.Rows, error)  { return &fakeRows{}, nil }
func (*fakeRows) Close() error                              { return nil }

func (*fakeRows) Columns() []string {
	names := make([]string, len(streamCols))
	for i, c := range streamCols {
		names[i] = c.Name
	}
	return names
}

func (*fakeRows) ColumnTypeDatabaseTypeName(i int) string { return streamCols[i].Type }

func (r *fakeRows) Next(dest []driver.Value) error {
	if r.next == len(streamRows) {
		return io.EOF
	}
	for i, v := range streamRows[r.next] {
		dest[i] = v
	}
	r.next++
	return nil
}

func TestCopy(t *testing.T) {
	t.Parallel()
	db, err := sql.Open("output-fake", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT * FROM anything")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var buf bytes.Buffer
	w, _ := output.New(output.Box, &buf, output.Options{})
	n, err := output.Copy(w, rows)
	if err != nil || n != int64(len(streamRows)) {
		t.Fatalf("Copy = %d, %v; want %d rows", n, err, len(streamRows))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if want := render(t, output.Box, output.Options{}, streamCols, streamRows); !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("Copy output:\n%s\nwant:\n%s", buf.Bytes(), want)
	}
}
