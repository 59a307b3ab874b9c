package output_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

func TestParseMode(t *testing.T) {
	t.Parallel()
	for _, m := range output.Modes() {
		got, err := output.ParseMode(strings.ToUpper(m.String()))
		if err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v; want %v", m, got, err, m)
		}
	}
	for alias, want := range map[string]output.Mode{"tabs": output.TSV, "ndjson": output.JSONL, "md": output.Markdown} {
		if got, err := output.ParseMode(alias); err != nil || got != want {
			t.Errorf("ParseMode(%q) = %v, %v; want %v", alias, got, err, want)
		}
	}
}

func TestParseMode_errors(t *testing.T) {
	t.Parallel()
	_, err := output.ParseMode("xml")
	if err == nil {
		t.Fatal("ParseMode(xml) succeeded")
	}
	for _, m := range output.Modes() {
		if !strings.Contains(err.Error(), m.String()) {
			t.Errorf("error %q does not list %q", err, m)
		}
	}
	if s := output.Mode(99).String(); s != "Mode(99)" {
		t.Errorf("Mode(99).String() = %q", s)
	}
}

func TestWriter_errors(t *testing.T) {
	t.Parallel()
	cols := []output.Column{{Name: "a"}, {Name: "b"}}
	if _, err := output.New(output.Mode(42), &bytes.Buffer{}, output.Options{}); err == nil {
		t.Error("New with unknown mode succeeded")
	}
	if _, err := output.New(output.Box, &bytes.Buffer{}, output.Options{MaxWidth: -1}); err == nil {
		t.Error("New with negative MaxWidth succeeded")
	}
	for _, m := range output.Modes() {
		t.Run(m.String(), func(t *testing.T) {
			w, _ := output.New(m, &bytes.Buffer{}, output.Options{})
			if err := w.Row([]any{1}); !errors.Is(err, output.ErrNoHeader) {
				t.Errorf("Row before Header: %v", err)
			}
			w, _ = output.New(m, &bytes.Buffer{}, output.Options{})
			if err := w.Header(cols); err != nil {
				t.Fatal(err)
			}
			if err := w.Row([]any{int64(1)}); err == nil {
				t.Error("Row with 1 value for 2 columns succeeded")
			}
			if err := w.Row([]any{int64(1), int64(2)}); err == nil {
				t.Error("error is not sticky")
			}
			if err := w.Close(); err == nil {
				t.Error("Close did not return the earlier error")
			}
			w, _ = output.New(m, &bytes.Buffer{}, output.Options{})
			w.Header(cols)
			if err := w.Header(cols); err == nil {
				t.Error("second Header succeeded")
			}
		})
	}
}

// failWriter fails every write.
type failWriter struct{}

var errWrite = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }

func TestWriter_writeError(t *testing.T) {
	t.Parallel()
	for _, m := range output.Modes() {
		w, _ := output.New(m, failWriter{}, output.Options{Header: true})
		w.Header(sampleCols)
		for _, r := range sampleRows {
			w.Row(r)
		}
		if err := w.Close(); !errors.Is(err, errWrite) {
			t.Errorf("%v: Close = %v, want %v", m, err, errWrite)
		}
	}
}

// TestBinaryModes: parquet and arrow parse, are binary, are not text
// modes and are not formatted by New; no text mode is binary.
func TestBinaryModes(t *testing.T) {
	t.Parallel()
	for _, m := range []output.Mode{output.Parquet, output.Arrow} {
		got, err := output.ParseMode(strings.ToUpper(m.String()))
		if err != nil || got != m || !m.Binary() {
			t.Errorf("ParseMode(%q) = %v, %v; Binary %v", m, got, err, m.Binary())
		}
		if _, err := output.New(m, &bytes.Buffer{}, output.Options{}); err == nil || !strings.Contains(err.Error(), "not a text mode") {
			t.Errorf("New(%v): %v", m, err)
		}
		for _, tm := range output.Modes() {
			if tm == m || tm.Binary() {
				t.Errorf("text mode %v: binary %v", tm, tm.Binary())
			}
		}
	}
	if s := output.Arrow.String(); s != "arrow" {
		t.Errorf("Arrow.String() = %q", s)
	}
}
