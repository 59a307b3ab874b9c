package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestBinary_arrowRefusedOnTerminal: --mode arrow and --mode parquet with
// a terminal as standard output fail with a clear error.
func TestBinary_arrowRefusedOnTerminal(t *testing.T) {
	t.Parallel()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	demo, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "demo.tet"))
	for _, tc := range []struct{ mode, ext string }{{"arrow", ".arrows"}, {"parquet", ".parquet"}} {
		slave, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(tetsqlBin, "--mode", tc.mode, demo, "SELECT * FROM temperature")
		var errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = slave, &errb
		err = cmd.Run()
		slave.Close()
		want := tc.mode + " output is binary and is not written to a terminal: use -o FILE" + tc.ext
		if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 || !strings.Contains(errb.String(), want) {
			t.Errorf("--mode %s on a terminal: %v, stderr %q; want exit 1 and %q", tc.mode, err, errb.String(), want)
		}
	}
}
