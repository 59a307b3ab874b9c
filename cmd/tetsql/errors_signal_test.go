//go:build unix

package main

import (
	"bytes"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestBinary_interruptedMessage: Ctrl-C (SIGINT) during a scan, a query
// and an export says "interrupted" and nothing of Go's cancellation.
func TestBinary_interruptedMessage(t *testing.T) {
	t.Parallel()
	cross := "SELECT count(*) FROM temperature a, temperature b, temperature c"
	for name, args := range map[string][]string{
		"cells scan": {"--no-agg-rewrite", demo(), cross},
		"recursion":  {"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1e12) SELECT count(*) FROM c"},
		"export":     {"--mode", "parquet", "-o", t.TempDir() + "/x.parquet", demo(), "SELECT a.value FROM temperature a, temperature b"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(tetsqlBin, args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			time.Sleep(time.Second) // into the statement (the runs take minutes)
			cmd.Process.Signal(syscall.SIGINT)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("still running 10s after the signal")
			}
			if code, got := cmd.ProcessState.ExitCode(), stderr.String(); code != exitInterrupted || got != "Error: interrupted\n" {
				t.Errorf("exit %d, stderr %q; want %d, \"Error: interrupted\\n\"", code, got, exitInterrupted)
			}
		})
	}
}
