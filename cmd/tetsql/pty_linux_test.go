package main

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// runInteractive runs the built command in dir with a pseudo-terminal
// as stdin (so it is the interactive shell, which carries on after an
// error) and pipes as stdout and stderr, types lines and then Ctrl-D,
// and returns the exit status and output.
func runInteractive(t *testing.T, dir string, lines []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	master, slave := openPTY(t)
	defer master.Close()
	cmd := exec.Command(tetsqlBin, args...)
	cmd.Dir = dir
	cmd.Stdin = slave
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		slave.Close()
		t.Fatal(err)
	}
	slave.Close()
	go io.Copy(io.Discard, master) // the terminal's echo
	// Ctrl-D (VEOF) at the start of a line ends the input.
	master.WriteString(strings.Join(lines, "\n") + "\n\x04")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("shell still running; stderr %q", errb.String())
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}
