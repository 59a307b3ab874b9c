package tgm

import (
	"github.com/tetsql/tetsql/array"
)

// The metadata tables' columns.
var (
	messageColumns = []array.Column{
		{Name: "message", Type: "INTEGER"},
		{Name: "offset", Type: "INTEGER"},
		{Name: "length", Type: "INTEGER"},
		{Name: "streaming", Type: "INTEGER"},
		{Name: "object_count", Type: "INTEGER"},
		{Name: "hashes", Type: "INTEGER"},
		{Name: "metadata", Type: "TEXT"},
	}
	objectColumns = []array.Column{
		{Name: "message", Type: "INTEGER"},
		{Name: "object", Type: "INTEGER"},
		{Name: "name", Type: "TEXT"},
		{Name: "dataset", Type: "TEXT"},
		{Name: "dtype", Type: "TEXT"},
		{Name: "shape", Type: "TEXT"},
		{Name: "encoding", Type: "TEXT"},
		{Name: "filter", Type: "TEXT"},
		{Name: "compression", Type: "TEXT"},
		{Name: "hashed", Type: "INTEGER"},
		{Name: "offset", Type: "INTEGER"},
		{Name: "stored_bytes", Type: "INTEGER"},
		{Name: "metadata", Type: "TEXT"},
	}
)

// Tables are the format's metadata tables (see array.TableProvider):
//
//   - tgm_messages, one row per message: message (0-based), offset and
//     length in the file, streaming (0/1: total length 0 in the
//     preamble), object_count, hashes (0/1: the preamble's
//     HASHES_PRESENT flag), metadata (JSON of the message metadata in
//     force, every top-level key but base: _extra_, _reserved_, …);
//   - tgm_objects, one row per data object: message, object (0-based in
//     its message), name, dataset (the dataset holding it, NULL when its
//     dtype has none), dtype (the Tensogram name), shape (JSON array),
//     encoding, filter, compression, hashed (0/1: it has a digest),
//     offset of its frame, stored_bytes of its payload, metadata (JSON of
//     base[object] with preceders merged, without _reserved_).
//
// The rows are rendered at Open: reading them touches no file bytes.
func (s *Source) Tables() []array.Table {
	return []array.Table{
		{Name: "tgm_messages", Columns: messageColumns, Rows: rowsOf(s.messages)},
		{Name: "tgm_objects", Columns: objectColumns, Rows: rowsOf(s.objects)},
	}
}

// rowsOf yields the rendered rows (the consumer copies what it keeps).
func rowsOf(rows [][]any) func(yield func([]any) bool) error {
	return func(yield func([]any) bool) error {
		for _, r := range rows {
			if !yield(r) {
				return nil
			}
		}
		return nil
	}
}

// rows renders both tables' rows from the scan and the datasets.
func (s *Source) rows() (messages, objects [][]any) {
	for i := range s.file.Messages {
		m := &s.file.Messages[i]
		messages = append(messages, []any{
			int64(m.Index), m.Offset, m.Length, b2i(m.Streaming), int64(len(m.Objects)), b2i(m.Hashed), JSON(m.Metadata),
		})
		for j := range m.Objects {
			o := &m.Objects[j]
			var ds any
			if p, ok := s.place[o]; ok {
				ds = p.ds.info.Name
			}
			shape := make([]any, len(o.Shape))
			for a, e := range o.Shape {
				shape[a] = e
			}
			objects = append(objects, []any{
				int64(m.Index), int64(o.Index), o.Name, ds, o.DType, JSON(shape), o.Encoding, o.Filter, o.Compression,
				b2i(o.Hashed()), o.FrameOffset, o.StoredBytes(), JSON(o.Metadata),
			})
		}
	}
	return messages, objects
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
