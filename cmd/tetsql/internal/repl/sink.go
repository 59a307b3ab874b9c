package repl

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// sinkKind says when an output file replaces its target.
type sinkKind int

const (
	// sinkSession (.output FILE): at the switch to another output or
	// when the shell ends, the file holds the complete results of every
	// statement that succeeded (a failed statement's partial output is
	// cut off); if none succeeded, the target is left as it was.
	sinkSession sinkKind = iota
	// sinkOnce (.once FILE): replaced after the next statement if it
	// succeeds; left as it was if it fails or none runs.
	sinkOnce
	// sinkWhole (-o FILE in a script run): replaced when the run ends
	// without an error; left as it was otherwise.
	sinkWhole
)

// sink is an output file (-o, .output, .once). Its results go to a
// temporary file that replaces the target only on success (see
// sinkKind), so a failing query never destroys the old file.
type sink struct {
	path string
	file *output.File
	mode output.Mode // mode the shell picks for it (see modeFor)
	// fromExt: mode is the format the extension names (.json, .parquet,
	// …), not a default for other names.
	fromExt bool
	// modeSet: the user chose a mode for this output: .mode while it was
	// current, or a mode flag given with -o.
	modeSet bool
	kind    sinkKind
	wrote   int          // statements whose results were written completely
	failed  bool         // a statement failed while this was the output
	broken  bool         // a failed statement's output could not be cut off
	held    binaryFormat // the binary format (Parquet, Arrow) of the result set it holds, after which nothing fits
}

// openSink starts an output file for path after checking that it is
// not one of the shell's inputs. The target is not touched until the
// sink is committed.
func (s *Shell) openSink(path string, kind sinkKind) (*sink, error) {
	if err := s.checkNotInput(path); err != nil {
		return nil, err
	}
	f, err := output.CreateFile(path)
	if err != nil {
		return nil, err
	}
	m, known := modeForPath(path)
	return &sink{path: path, file: f, mode: m, fromExt: known, kind: kind}, nil
}

// announce says on standard error which mode the shell picked for k, an
// output file of .output or .once, when the user did not choose one:
// "(writing x.json as json)"; not when that is the mode the user chose
// anyway.
func (s *Shell) announce(k *sink) {
	if !s.userMode(k) && !(s.modeSet && s.mode == k.mode) {
		fmt.Fprintf(s.opt.Stderr, "(writing %s as %s)\n", k.path, k.mode)
	}
}

// userMode reports whether results to k (nil = standard output) take the
// mode the user chose (.mode, --mode). A file whose extension names a
// format (x.json, x.parquet) takes that format instead, unless the mode
// was chosen for it: by .mode while it is the output, or by a mode flag
// given with -o. A mode chosen before .output FILE is the terminal's.
func (s *Shell) userMode(k *sink) bool {
	return s.modeSet && (k == nil || k.modeSet || !k.fromExt)
}

// checkExtension refuses results in a mode the user chose for a file
// whose extension names a binary format (.parquet, .arrows, …) of
// another mode: readers of the file would fail on them.
func (s *Shell) checkExtension(k *sink) error {
	if k == nil || !k.fromExt || !k.mode.Binary() || !s.userMode(k) || s.mode == k.mode {
		return nil
	}
	return fmt.Errorf("mode %s does not write %s, a %s file: use .mode %s, or name the file for %s",
		s.mode, k.path, k.mode, k.mode, s.mode)
}

// after records the outcome of a statement whose results went to k;
// off is the file's length before the statement, results tells whether
// it had a result set.
func (k *sink) after(off int64, results bool, err error) error {
	if err != nil {
		k.failed = true
		if rerr := k.file.Rewind(off); rerr != nil {
			k.broken = true // never commit the partial rows
			return rerr
		}
		return nil
	}
	if results {
		k.wrote++
	}
	return nil
}

// closeSink ends the sink: it replaces the target or discards the results
// according to its kind. runFailed tells that the run ends with an
// error (what sinkWhole needs to know).
func (s *Shell) closeSink(k *sink, runFailed bool) error {
	keep := false
	switch k.kind {
	case sinkSession:
		keep = k.wrote > 0
	case sinkOnce:
		keep = k.wrote > 0 && !k.failed
	case sinkWhole:
		keep = !k.failed && !runFailed
	}
	keep = keep && !k.broken
	var none error
	if _, binary := binaryFormats[s.modeFor(k)]; keep && binary && k.held.name == "" {
		// An empty file is no Parquet or Arrow file: readers reject it.
		keep = false
		none = fmt.Errorf("%s not written: no statement gave it a result set", k.path)
	}
	if !keep {
		if none != nil {
			k.file.Abort()
			return none
		}
		if k.kind == sinkSession && k.failed && !k.file.Direct() {
			fmt.Fprintf(s.opt.Stderr, "note: %s left unchanged: no statement succeeded since .output\n", k.path)
		}
		return k.file.Abort()
	}
	// The target may have become an input since the sink was opened
	// (.open, ATTACH): never rename over it.
	if !k.file.Direct() {
		if err := s.checkNotInput(k.path); err != nil {
			k.file.Abort()
			return err
		}
	}
	return k.file.Commit()
}

// modeForPath picks the mode of an output file from its extension:
// .csv, .json, .jsonl/.ndjson, .md/.markdown, .tsv/.tab, .parquet/.pq,
// .arrows/.arrow/.feather (Arrow), for which known is true; box for
// .txt and csv for other names, which name no format (known false).
func modeForPath(path string) (m output.Mode, known bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return output.CSV, true
	case ".json":
		return output.JSON, true
	case ".jsonl", ".ndjson":
		return output.JSONL, true
	case ".md", ".markdown":
		return output.Markdown, true
	case ".tsv", ".tab":
		return output.TSV, true
	case ".parquet", ".pq":
		return output.Parquet, true
	case ".arrows", ".arrow", ".feather":
		return output.Arrow, true
	case ".txt":
		return output.Box, false
	}
	return output.CSV, false
}

// groupDigits writes n with thousands separators: 1234567 → 1,234,567.
func groupDigits(n int64) string { return string(output.AppendGrouped(nil, n)) }

// sizeText formats a byte count with a binary unit: 512 B, 1.5 KiB, 3.2 GiB.
func sizeText(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n)/1024, 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, units[i])
}
