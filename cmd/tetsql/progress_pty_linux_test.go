package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer collects what the terminal shows, read while written.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestProgressLine_pty: in the interactive shell with stderr on a
// terminal and stdout redirected to a file, a statement running past a second draws the progress line,
// and Ctrl-C (SIGINT) erases it before the error is printed.
func TestProgressLine_pty(t *testing.T) {
	t.Parallel()
	master, slave := openPTY(t)
	defer master.Close()
	demo, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "demo.tet"))
	cmd := exec.Command(tetsqlBin, "--no-init", demo)
	// Standard output redirected to a file, which keeps the line (a pipe
	// gets none).
	stdout, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, stdout, slave
	if err := cmd.Start(); err != nil {
		slave.Close()
		t.Fatal(err)
	}
	slave.Close()
	var term lockedBuffer
	go io.Copy(&term, master)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer cmd.Process.Kill()
	// Runs until interrupted: the inner scan of temperature restarts
	// for every row of c.
	master.WriteString("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) " +
		"SELECT count(*) FROM c CROSS JOIN temperature;\n")
	waitFor := func(what string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !strings.Contains(term.String(), what) {
			if time.Now().After(deadline) {
				t.Fatalf("no %q on the terminal: %q", what, term.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor(" chunks  ")
	cmd.Process.Signal(os.Interrupt)
	waitFor("interrupted")
	master.WriteString("\x04")
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("shell still running: %q", term.String())
	}
	got := term.String()
	first := strings.Index(got, " chunks  ")
	if first < 0 || !strings.Contains(got[first:], "\r\033[K") {
		t.Fatalf("line not erased: %q", got)
	}
	erased := first + strings.Index(got[first:], "\r\033[K")
	if e := strings.Index(got, "interrupted"); e < erased {
		t.Errorf("error printed before the line was erased: %q", got)
	}
	if strings.Contains(got[erased:], " chunks  ") {
		t.Errorf("line drawn after it was erased: %q", got)
	}
}
