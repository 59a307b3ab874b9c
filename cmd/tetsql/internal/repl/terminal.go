package repl

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/peterh/liner"
)

// Terminal is the interactive LineReader: line editing, Ctrl-R search
// and history persisted to a file, by github.com/peterh/liner. Ctrl-C
// at the prompt returns ErrInterrupt; Ctrl-D on an empty line, io.EOF.
// Between prompts the terminal delivers Ctrl-C as SIGINT, which the
// shell turns into cancelling the running statement.
type Terminal struct {
	st      *liner.State
	history string
}

// NewTerminal puts the terminal in line-editing mode and loads the
// history file at historyPath ("" keeps no history). Close restores the
// terminal.
func NewTerminal(historyPath string) *Terminal {
	st := liner.NewLiner()
	st.SetCtrlCAborts(true)
	st.SetMultiLineMode(true)
	st.SetTabCompletionStyle(liner.TabPrints)
	t := &Terminal{st: st, history: historyPath}
	if historyPath != "" {
		if f, err := os.Open(historyPath); err == nil {
			st.ReadHistory(f)
			f.Close()
		}
	}
	return t
}

// SetCompleter installs a tab completer: given the line up to the
// cursor's word, it returns the candidate words.
func (t *Terminal) SetCompleter(complete func(line string, pos int) (head string, completions []string, tail string)) {
	t.st.SetWordCompleter(complete)
}

// ReadLine implements LineReader.
func (t *Terminal) ReadLine(prompt string) (string, error) {
	line, err := t.st.Prompt(prompt)
	if errors.Is(err, liner.ErrPromptAborted) {
		return "", ErrInterrupt
	}
	return line, err
}

// AddHistory implements LineReader; the history file is rewritten at
// once so that it survives a crash or a kill.
func (t *Terminal) AddHistory(entry string) {
	t.st.AppendHistory(entry)
	t.save()
}

func (t *Terminal) save() {
	if t.history == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(t.history), 0o700); err != nil {
		return
	}
	tmp := t.history + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return
	}
	_, werr := t.st.WriteHistory(f)
	if cerr := f.Close(); werr == nil && cerr == nil {
		os.Rename(tmp, t.history)
	} else {
		os.Remove(tmp)
	}
}

// Close saves the history and restores the terminal's mode.
func (t *Terminal) Close() error {
	t.save()
	return t.st.Close()
}

// HistoryPath is where the interactive shell keeps its history:
// $TETSQL_HISTORY when set (empty disables history), else
// <user cache dir>/tetsql/history.
func HistoryPath() string {
	if p, ok := os.LookupEnv("TETSQL_HISTORY"); ok {
		return p
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "tetsql", "history")
}
