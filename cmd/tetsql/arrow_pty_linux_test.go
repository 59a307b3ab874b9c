package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinary_arrowRefusedOnTerminal: --mode arrow and --mode parquet with
// a terminal as standard output fail with a clear error.
func TestBinary_arrowRefusedOnTerminal(t *testing.T) {
	t.Parallel()
	demo, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "demo.tet"))
	for _, tc := range []struct{ mode, ext string }{{"arrow", ".arrows"}, {"parquet", ".parquet"}} {
		master, slave := openPTY(t)
		cmd := exec.Command(tetsqlBin, "--mode", tc.mode, demo, "SELECT * FROM temperature")
		var errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = slave, &errb
		err := cmd.Run()
		slave.Close()
		master.Close()
		want := tc.mode + " output is binary and is not written to a terminal: use -o FILE" + tc.ext
		if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 || !strings.Contains(errb.String(), want) {
			t.Errorf("--mode %s on a terminal: %v, stderr %q; want exit 1 and %q", tc.mode, err, errb.String(), want)
		}
	}
}
