package repl

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// LineReader is where the shell reads its input, one line at a time.
// The terminal implementation edits lines and keeps history; scripts
// and tests use simpler ones.
type LineReader interface {
	// ReadLine shows prompt (when interactive) and returns the next line
	// without its newline. It returns ErrInterrupt when the user pressed
	// Ctrl-C at the prompt, and io.EOF at the end of input.
	ReadLine(prompt string) (string, error)
	// AddHistory records one complete entry (a statement or a dot
	// command) for recall.
	AddHistory(entry string)
}

// ErrInterrupt is returned by ReadLine when the user pressed Ctrl-C.
var ErrInterrupt = errors.New("interrupt")

// newScanner returns a LineReader over r that shows no prompt and keeps
// no history (scripts, piped input).
func newScanner(r io.Reader) LineReader {
	return &scanner{r: bufio.NewReaderSize(r, 64<<10)}
}

type scanner struct{ r *bufio.Reader }

func (s *scanner) ReadLine(string) (string, error) {
	line, err := s.r.ReadString('\n')
	if err != nil && (err != io.EOF || line == "") {
		return "", err
	}
	return strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), nil
}

func (s *scanner) AddHistory(string) {}

// promptWriter is a LineReader over r that writes its prompts to w (an
// interactive session whose output is not a terminal, so no editing).
type promptWriter struct {
	scanner
	w io.Writer
}

// NewPrompter returns a LineReader over r that writes each prompt to w
// and keeps no history.
func NewPrompter(r io.Reader, w io.Writer) LineReader {
	return &promptWriter{scanner: scanner{r: bufio.NewReader(r)}, w: w}
}

func (p *promptWriter) ReadLine(prompt string) (string, error) {
	io.WriteString(p.w, prompt)
	return p.scanner.ReadLine(prompt)
}
