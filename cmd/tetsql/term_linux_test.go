package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// termShell is the built command running on a pseudo-terminal of a
// given size as its stdin, stdout, stderr and controlling terminal, as
// when a person types into it: Ctrl-C at the terminal sends SIGINT, the
// shell edits lines and sizes its output to the window.
type termShell struct {
	t      *testing.T
	master *os.File
	cmd    *exec.Cmd
	mu     sync.Mutex
	out    []byte // everything the terminal showed
	done   chan struct{}
}

// openPTY opens a pseudo-terminal, skipping the test where there is
// none; the caller closes both ends.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		master.Close()
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		master.Close()
		t.Fatal(err)
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		t.Fatal(err)
	}
	return master, slave
}

// startTerm starts the command with args on a rows × cols terminal,
// with an empty home directory (no init file) and no history file.
func startTerm(t *testing.T, rows, cols int, args ...string) *termShell {
	t.Helper()
	master, slave := openPTY(t)
	ws := &unix.Winsize{Row: uint16(rows), Col: uint16(cols)}
	if err := unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, ws); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tetsqlBin, args...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "TETSQL_HISTORY=", "TERM=xterm")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		slave.Close()
		master.Close()
		t.Fatal(err)
	}
	slave.Close()
	ts := &termShell{t: t, master: master, cmd: cmd, done: make(chan struct{})}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			ts.mu.Lock()
			ts.out = append(ts.out, buf[:n]...)
			ts.mu.Unlock()
			if err != nil { // EIO once the command has exited
				close(ts.done)
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		master.Close()
	})
	return ts
}

// typeText sends text as typed keys ("\r" is Enter, "\x03" Ctrl-C,
// "\x04" Ctrl-D).
func (ts *termShell) typeText(text string) {
	ts.t.Helper()
	if _, err := ts.master.WriteString(text); err != nil {
		ts.t.Fatal(err)
	}
}

// resize changes the terminal's size, as a person dragging the window.
func (ts *termShell) resize(rows, cols int) {
	ts.t.Helper()
	ws := &unix.Winsize{Row: uint16(rows), Col: uint16(cols)}
	if err := unix.IoctlSetWinsize(int(ts.master.Fd()), unix.TIOCSWINSZ, ws); err != nil {
		ts.t.Fatal(err)
	}
}

// screen is what the terminal showed so far, without colour and cursor
// escapes and carriage returns.
func (ts *termShell) screen() string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return cleanScreen(string(ts.out))
}

var escapes = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

func cleanScreen(s string) string {
	s = escapes.ReplaceAllString(s, "")
	return strings.ReplaceAll(s, "\r", "")
}

// waitFor waits until the screen holds want and returns the screen.
func (ts *termShell) waitFor(want string) string {
	ts.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := ts.screen()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			ts.t.Fatalf("the terminal never showed %q; it shows:\n%s", want, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// wait waits for the command to end and returns its exit status.
func (ts *termShell) wait() int {
	ts.t.Helper()
	exited := make(chan struct{})
	go func() { ts.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		ts.cmd.Process.Kill()
		ts.t.Fatalf("the shell did not end; the terminal shows:\n%s", ts.screen())
	}
	select { // the last output
	case <-ts.done:
	case <-time.After(2 * time.Second):
	}
	return ts.cmd.ProcessState.ExitCode()
}
