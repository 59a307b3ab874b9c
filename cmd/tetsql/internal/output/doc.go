// Package output provides the result formatters of the tetsql shell: box,
// table, csv, tsv, json, jsonl, markdown and line modes behind one small
// streaming Writer interface, plus a Progress line for long exports. The
// binary modes parquet and arrow are only named here: the shell writes
// them with the root package's WriteParquet and WriteArrow. The
// shell's user contract is "tetsql --help" and docs/SQL.md in the
// repository.
//
// Every Writer holds a bounded amount of memory however many rows pass
// through it: csv, tsv, json, jsonl and line write each row as it arrives
// (through a bufio.Writer flushed by Close); box, table and markdown buffer
// at most a window of rows (1000) to size their columns, then stream.
//
// # Formatting decisions
//
// Values print the same way in every text mode; only the quoting and
// escaping differ:
//
//   - NULL prints as Options.Null (empty by default) in every mode except
//     json and jsonl, where it is null.
//   - Integers print in decimal, also as JSON numbers (beyond 2^53 as well,
//     like sqlite3).
//   - Floats print the shortest digits that parse back to the same value,
//     laid out like sqlite3's "%!.15g": fixed notation for exponents -4..14,
//     otherwise d.ddde±XX, and always with a decimal point so a REAL never
//     looks like an INTEGER: 0.1, 3.0, -0.0, 1.0e+300, 1.0e-07,
//     0.3333333333333333. sqlite3 prints 15 significant digits in text
//     modes and 17 in json, so it may show 0.333333333333333 or
//     0.10000000000000000555 where tetsql prints 0.3333333333333333 and 0.1.
//     ±Inf print as Inf and -Inf (json: 1e999 and -1e999, as sqlite3
//     -json does); NaN prints as NaN (json: null).
//   - Booleans print as true and false (json: true/false).
//   - time.Time prints in SQLite's date-time text form.
//   - []byte prints as text when it is valid UTF-8 (as sqlite3 shows a blob
//     holding text) and otherwise as the blob literal X'00FF' (json: the
//     string "X'00FF'"); sqlite3 writes the raw bytes instead.
//   - Strings print unchanged in csv (RFC 4180 quoting via encoding/csv) and
//     line mode; tsv escapes \ tab CR LF as \\ \t \r \n (linear TSV);
//     json escapes ", \, C0 controls, U+2028 and U+2029 and replaces
//     invalid UTF-8 with U+FFFD; box, table and markdown show \n, \r, \t,
//     other controls, U+2028/U+2029 and bidi overrides as escapes so every
//     row stays on one line in order, and markdown escapes | as \|.
//   - CSV cannot tell NULL from an empty string with the default Null "",
//     since encoding/csv never quotes an empty field; set Null (--null) to
//     tell them apart. A one-column row with an empty field is written as ""
//     so readers do not drop it as a blank line.
//   - Box, table and markdown pad with terminal display width (East Asian
//     wide characters count 2, combining marks 0), centre headers, and
//     right-align numeric columns (see Column.Type). Values wider than the
//     widths computed from the first window of rows extend their own cell
//     rather than being cut, except text on a terminal (Options.FitWidth,
//     box, table and column), which is cut to its column with "…";
//     Options.MaxWidth, when set, cuts every cell except numbers to that
//     width with a trailing "…".
//   - An empty result prints its header (box, table, markdown, csv/tsv with
//     Header) or [] (json); sqlite3 prints nothing.
package output
