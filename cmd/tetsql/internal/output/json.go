package output

// jsonWriter writes json mode, laid out like sqlite3 -json (an array with
// one row object per line: `[{"a":1},` newline `{"a":2}]`), or, with lines
// set, jsonl mode (one object per line, no array). Keys are the column
// names in column order; duplicate names are kept as they are.
type jsonWriter struct {
	base
	lines bool
	keys  [][]byte // `"name":` for each column
	rows  int64
}

// Header implements Writer.
func (j *jsonWriter) Header(cols []Column) error {
	if err := j.header(cols); err != nil {
		return err
	}
	j.keys = make([][]byte, len(cols))
	for i, c := range cols {
		j.keys[i] = append(appendJSONString(nil, c.Name), ':')
	}
	return nil
}

// Row implements Writer.
func (j *jsonWriter) Row(vals []any) error {
	if err := j.check(vals); err != nil {
		return err
	}
	b := j.buf[:0]
	if !j.lines {
		if j.rows == 0 {
			b = append(b, '[')
		} else {
			b = append(b, ',', '\n')
		}
	}
	b = append(b, '{')
	for i, v := range vals {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, j.keys[i]...)
		b = appendJSONValue(b, v)
	}
	b = append(b, '}')
	if j.lines {
		b = append(b, '\n')
	}
	j.buf = b
	j.rows++
	j.write(b)
	return j.err
}

// Close implements Writer. In json mode it ends the array; a result with no
// rows prints [] (sqlite3 prints nothing) so the output is always valid
// JSON. Nothing is printed if Header was never called.
func (j *jsonWriter) Close() error {
	if !j.lines && j.started && j.err == nil {
		if j.rows > 0 {
			j.writeString("]\n")
		} else {
			j.writeString("[]\n")
		}
	}
	return j.close()
}

// lineWriter writes sqlite3's line mode: "name = value" for each column,
// names right-aligned to the widest name (at least 5 columns, as sqlite3
// does), and a blank line between rows. Values print raw, so a value with a
// newline continues on the next line, as in sqlite3.
type lineWriter struct {
	base
	pad  []int // spaces before each column name
	rows int64
}

// Header implements Writer.
func (l *lineWriter) Header(cols []Column) error {
	if err := l.header(cols); err != nil {
		return err
	}
	width := 5
	l.pad = make([]int, len(cols))
	for i, c := range cols {
		l.pad[i] = displayWidth([]byte(c.Name))
		width = max(width, l.pad[i])
	}
	for i := range l.pad {
		l.pad[i] = width - l.pad[i]
	}
	return nil
}

// Row implements Writer.
func (l *lineWriter) Row(vals []any) error {
	if err := l.check(vals); err != nil {
		return err
	}
	b := l.buf[:0]
	if l.rows > 0 {
		b = append(b, '\n')
	}
	for i, v := range vals {
		for range l.pad[i] {
			b = append(b, ' ')
		}
		b = append(b, l.cols[i].Name...)
		b = append(b, " = "...)
		b = appendText(b, v, l.opts.Null)
		b = append(b, '\n')
	}
	l.buf = b
	l.rows++
	l.write(b)
	return l.err
}

// Close implements Writer.
func (l *lineWriter) Close() error { return l.close() }
