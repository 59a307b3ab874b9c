package repl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tetsql/tetsql/internal/output"
)

// sink is an output file (-o, .output, .once).
type sink struct {
	path string
	f    *os.File
	mode output.Mode // mode used when none was chosen explicitly
}

// openSink creates (or truncates) the file at path.
func openSink(path string) (*sink, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &sink{path: path, f: f, mode: modeForPath(path)}, nil
}

func (k *sink) close() error {
	if err := k.f.Close(); err != nil {
		return fmt.Errorf("output %s: %w", k.path, err)
	}
	return nil
}

// modeForPath picks the default mode of an output file from its
// extension: .json, .jsonl/.ndjson, .md, .tsv, .txt (box); csv otherwise.
func modeForPath(path string) output.Mode {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return output.JSON
	case ".jsonl", ".ndjson":
		return output.JSONL
	case ".md", ".markdown":
		return output.Markdown
	case ".tsv", ".tab":
		return output.TSV
	case ".txt":
		return output.Box
	}
	return output.CSV
}

// groupDigits writes n with thousands separators: 1234567 → 1,234,567.
func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

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
