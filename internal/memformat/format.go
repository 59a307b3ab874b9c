// Package memformat provides a tiny test-only array format: a magic line
// followed by JSON that describes arrays and their values, loaded whole
// into memory. It exists to show that a new format of tetsql is one
// package implementing package array (Format, Source, Array) plus one
// line in the format list, and to give the engine's tests arrays of any
// dtype, shape, chunking and labelling without writing a .tet file.
//
// A file looks like this:
//
//	tetsql-memarray 1
//	{"attrs": {"title": "demo"},
//	 "arrays": [
//	  {"name": "t", "dtype": "f32", "shape": [2, 3], "chunk_shape": [2, 2],
//	   "dim_names": ["y", "x"], "labels": [["a", "b"], null],
//	   "attrs": {"units": "K"}, "values": [1, 2, 3, 4.5, "NaN", "-Inf"]},
//	  {"name": "r", "dtype": "i16", "shape": [5, 7], "chunk_shape": [2, 3],
//	   "generator": "ramp", "missing_chunks": [4]}]}
//
// Values are listed row-major, as JSON numbers or as the strings "NaN",
// "Inf" and "-Inf" for floats; integers must fit their dtype exactly. A
// generator fills the values instead: "ramp" (element = its row-major
// index, converted to the dtype as Go converts) or "zeros".
// missing_chunks lists chunk ids the "file" does not store, to exercise
// absent chunks.
//
// An optional "tables" section lists metadata tables of the format's own,
// which the SQL layer serves beside the fixed ones (array.TableProvider,
// the only optional capability of a source; see tableJSON):
//
//	"tables": [{"name": "mem_notes", "columns": [["k", "TEXT"], ["n", "INTEGER"]],
//	            "rows": [["a", 1], ["b", null]]}]
package memformat

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/tetsql/tetsql/array"
)

// Magic is the first line of every file of this format, version included.
const Magic = "tetsql-memarray 1\n"

// magicPrefix is what Sniff recognises: the line without its version, so
// that a file of another version is refused with a message, not ignored.
const magicPrefix = "tetsql-memarray "

// MaxBytes bounds a file and the decoded bytes of all its arrays: this is
// a format for small test fixtures.
const MaxBytes = 16 << 20

// Format is the in-memory test format as an array.Format.
var Format array.Format = memFormat{}

type memFormat struct{}

// Name is "mem".
func (memFormat) Name() string { return "mem" }

// Sniff recognises the magic line.
func (memFormat) Sniff(head []byte) bool { return bytes.HasPrefix(head, []byte(magicPrefix)) }

// Open reads and parses a whole file.
func (memFormat) Open(path string, o array.Options) (array.Source, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("memformat: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("memformat: %s: %w", path, array.ErrNotRegular)
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("memformat: %w", err)
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("memformat: %s: %w", path, err)
	}
	s, err := parse(data, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Parse parses the bytes of a whole file (as Open does, with default
// options).
func Parse(data []byte) (array.Source, error) {
	s, err := parse(data, array.Options{})
	if err != nil {
		return nil, err // not s: a nil *source in an interface is not nil
	}
	return s, nil
}
