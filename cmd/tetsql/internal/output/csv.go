package output

import (
	"encoding/csv"
	"io"
)

// csvWriter writes RFC 4180 CSV through encoding/csv: fields are quoted
// only when they contain a comma, quote, CR or LF or start with a space, and
// lines end in \n. A one-column row whose field is empty is written as ""
// so that CSV readers do not skip it as a blank line.
type csvWriter struct {
	base
	cw   *csv.Writer
	rec  []string
	ends []int
}

func newCSV(w io.Writer, opts Options) *csvWriter {
	b := newBase(w, opts)
	return &csvWriter{base: b, cw: csv.NewWriter(b.bw)}
}

// Header implements Writer.
func (c *csvWriter) Header(cols []Column) error {
	if err := c.header(cols); err != nil {
		return err
	}
	c.rec = make([]string, len(cols))
	c.ends = make([]int, len(cols))
	if !c.opts.Header || len(cols) == 0 {
		return nil
	}
	for i, col := range cols {
		c.rec[i] = col.Name
	}
	return c.record()
}

// Row implements Writer. Strings are passed to encoding/csv as they are;
// every other value is formatted into one scratch buffer that becomes a
// single string per row, so a row costs at most one allocation.
func (c *csvWriter) Row(vals []any) error {
	if err := c.check(vals); err != nil {
		return err
	}
	c.buf = c.buf[:0]
	for i, v := range vals {
		if _, ok := v.(string); !ok {
			c.buf = appendText(c.buf, v, c.opts.Null)
		}
		c.ends[i] = len(c.buf)
	}
	var s string
	if len(c.buf) > 0 {
		s = string(c.buf)
	}
	start := 0
	for i, v := range vals {
		if x, ok := v.(string); ok {
			c.rec[i] = x
			continue
		}
		c.rec[i] = s[start:c.ends[i]]
		start = c.ends[i]
	}
	return c.record()
}

func (c *csvWriter) record() error {
	if len(c.rec) == 1 && c.rec[0] == "" {
		c.cw.Flush()
		c.writeString("\"\"\n")
		return c.err
	}
	if err := c.cw.Write(c.rec); err != nil && c.err == nil {
		c.err = err
	}
	return c.err
}

// Close implements Writer.
func (c *csvWriter) Close() error {
	c.cw.Flush()
	if err := c.cw.Error(); err != nil && c.err == nil {
		c.err = err
	}
	return c.close()
}

// tsvWriter writes tab-separated values, one record per line, escaping
// fields as appendTSV describes. NULL prints as Options.Null.
type tsvWriter struct {
	base
	raw   []byte
	sep   byte // '\t'; '|' in list mode
	plain bool // list mode: values as they are, no escapes (as sqlite3)
}

// field appends one value or name to t.buf, escaped unless plain.
func (t *tsvWriter) field(b []byte) {
	if t.plain {
		t.buf = append(t.buf, b...)
		return
	}
	t.buf = appendTSV(t.buf, b)
}

// Header implements Writer.
func (t *tsvWriter) Header(cols []Column) error {
	if err := t.header(cols); err != nil {
		return err
	}
	if !t.opts.Header || len(cols) == 0 {
		return nil
	}
	t.buf = t.buf[:0]
	for i, col := range cols {
		if i > 0 {
			t.buf = append(t.buf, t.sep)
		}
		t.field([]byte(col.Name))
	}
	t.buf = append(t.buf, '\n')
	t.write(t.buf)
	return t.err
}

// Row implements Writer.
func (t *tsvWriter) Row(vals []any) error {
	if err := t.check(vals); err != nil {
		return err
	}
	t.buf = t.buf[:0]
	for i, v := range vals {
		if i > 0 {
			t.buf = append(t.buf, t.sep)
		}
		t.raw = appendText(t.raw[:0], v, t.opts.Null)
		t.field(t.raw)
	}
	t.buf = append(t.buf, '\n')
	t.write(t.buf)
	return t.err
}

// Close implements Writer.
func (t *tsvWriter) Close() error { return t.close() }
