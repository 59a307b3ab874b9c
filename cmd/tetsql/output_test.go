//go:build unix

package main

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBinary_outputIsInput: -o, .output and .once naming an input (the
// attached file by any name, or a script) are refused before anything
// is written; the input stays byte for byte as it was.
func TestBinary_outputIsInput(t *testing.T) {
	t.Parallel()
	const q = "SELECT count(*) FROM temperature"
	tests := []struct {
		name string
		args []string
		// stdin, when not "", is also written to in.sql
		stdin string
		want  string // substring of stderr
	}{
		{name: "-o same path", args: []string{"-o", "demo_copy.tet", "demo_copy.tet", q}},
		{name: "-o relative path", args: []string{"-o", "../d/./demo_copy.tet", "demo_copy.tet", q}},
		{name: "-o absolute path", args: []string{"-o", "ABS/demo_copy.tet", "demo_copy.tet", q}},
		{name: "-o symlink", args: []string{"-o", "link.tet", "demo_copy.tet", q}},
		{name: "-o hard link", args: []string{"-o", "hard.tet", "demo_copy.tet", q}},
		{name: "-o alias", args: []string{"-o", "demo_copy.tet", "x=demo_copy.tet", "SELECT count(*) FROM x.temperature"}},
		{name: "-o input without SQL", args: []string{"-o", "demo_copy.tet", "demo_copy.tet"}, stdin: q + ";"},
		{name: ".output", args: []string{"-c", ".output link.tet", "-c", q, "demo_copy.tet"}},
		{name: ".once", args: []string{"-c", ".once hard.tet", "-c", q, "demo_copy.tet"}},
		{name: ".output after .open", args: []string{"-c", ".open demo_copy.tet AS late", "-c", ".output demo_copy.tet", "-c", "SELECT 1"}},
		{name: "-o then .open it", args: []string{"-o", "demo_copy.tet", "-c", ".open demo_copy.tet AS late", "-c", "SELECT 1"}},
		{name: "-o script", args: []string{"-o", "in.sql", "-f", "in.sql", "demo_copy.tet"}, stdin: q + ";", want: "is the output file"},
		{name: ".output script", args: []string{"-f", "in.sql", "demo_copy.tet"}, stdin: ".output in.sql\n" + q + ";", want: "is an input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "d")
			os.Mkdir(dir, 0o755)
			orig := copyFile(t, filepath.Join("..", "..", "testdata", "demo.tet"), filepath.Join(dir, "demo_copy.tet"))
			if err := os.Symlink("demo_copy.tet", filepath.Join(dir, "link.tet")); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(filepath.Join(dir, "demo_copy.tet"), filepath.Join(dir, "hard.tet")); err != nil {
				t.Fatal(err)
			}
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				args[i] = strings.Replace(a, "ABS", dir, 1)
			}
			if tt.stdin != "" {
				os.WriteFile(filepath.Join(dir, "in.sql"), []byte(tt.stdin), 0o644)
			}
			code, _, errs := runBin(t, dir, tt.stdin, args...)
			want := tt.want
			if want == "" {
				want = "is an input of this session"
			}
			if code != 1 || !strings.Contains(errs, want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, errs, want)
			}
			sameContent(t, filepath.Join(dir, "demo_copy.tet"), orig, "input")
			if tt.stdin != "" {
				sameContent(t, filepath.Join(dir, "in.sql"), []byte(tt.stdin), "script")
			}
			noTemps(t, dir)
		})
	}
}

// TestBinary_outputReplacedOnSuccess: an output file is replaced only
// when its statement (-o: the whole run; .once: the next statement)
// succeeds. Then it holds exactly what the same run prints to stdout
// and keeps its permissions; otherwise it is left as it was, and no
// temporary file remains.
func TestBinary_outputReplacedOnSuccess(t *testing.T) {
	t.Parallel()
	demo, err := filepath.Abs(filepath.Join("..", "..", "testdata", "demo.tet"))
	if err != nil {
		t.Fatal(err)
	}
	const good = "SELECT time, station, value FROM temperature WHERE station < 3 ORDER BY time, station"
	// A statement that fails after it has written rows: abs() of the
	// smallest integer overflows once value passes 30.
	const midway = "SELECT time, CASE WHEN value > 30 THEN abs(-9223372036854775807 - 1) ELSE value END AS v FROM temperature"
	old := []byte("old contents\n")
	tests := []struct {
		name    string
		args    []string // "OUT" is the output file
		ok      bool     // the run succeeds (exit 0)
		replace bool     // the file is replaced by what the stdout run prints
		stdout  []string // the commands whose stdout output the file must hold
	}{
		{name: "-o success", args: []string{"-o", "OUT", demo, good}, ok: true, replace: true, stdout: []string{good}},
		{name: "-o syntax error", args: []string{"-o", "OUT", demo, "SELEC 1"}},
		{name: "-o second statement fails", args: []string{"-o", "OUT", demo, good + "; SELECT nope"}},
		{name: "-o fails midway", args: []string{"-o", "OUT", demo, midway}},
		{name: "-o dot command fails", args: []string{"-o", "OUT", "-c", good, "-c", ".nope", demo}},
		{name: ".once success", args: []string{"-c", ".once OUT", "-c", good, "-c", "SELECT 1", demo}, ok: true, replace: true, stdout: []string{good}},
		{name: ".once fails", args: []string{"-c", ".once OUT", "-c", "SELECT nope", demo}},
		{name: ".once fails midway", args: []string{"-c", ".once OUT", "-c", midway, demo}},
		{name: ".once unused", args: []string{"-c", ".once OUT", demo}, ok: true},
		{name: ".output keeps successful statements", args: []string{"-c", ".output OUT", "-c", good, "-c", midway, demo},
			replace: true, stdout: []string{good}},
		{name: ".output switched", args: []string{"-c", ".output OUT", "-c", good, "-c", "SELECT 2 AS two", "-c", ".output", "-c", "SELECT nope", demo},
			replace: true, stdout: []string{good, "SELECT 2 AS two"}},
		{name: ".output nothing succeeded", args: []string{"-c", ".output OUT", "-c", midway, demo}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out := filepath.Join(dir, "out.csv")
			if err := os.WriteFile(out, old, 0o600); err != nil {
				t.Fatal(err)
			}
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				args[i] = strings.Replace(a, "OUT", out, 1)
			}
			code, _, errs := runBin(t, dir, "", args...)
			want := old
			if tt.replace {
				var all []byte
				for _, q := range tt.stdout {
					c, o, e := runBin(t, dir, "", demo, q)
					if c != 0 {
						t.Fatalf("%s: exit %d: %s", q, c, e)
					}
					all = append(all, o...)
				}
				if strings.Count(string(all), "\n") < 2 {
					t.Fatalf("reference output too small: %q", all)
				}
				want = all
			}
			if wantCode := map[bool]int{false: 1, true: 0}[tt.ok]; code != wantCode {
				t.Errorf("exit %d, want %d; stderr %q", code, wantCode, errs)
			}
			sameContent(t, out, want, "output")
			if fi, err := os.Stat(out); err == nil && fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
			}
			noTemps(t, dir)
		})
	}
}

// TestBinary_outputNewFile: a new output file gets 0666 less the umask,
// like a file the shell creates; a directory or a missing directory is
// a clear error.
func TestBinary_outputNewFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "new.csv")
	code, _, errs := runBin(t, dir, "", "-o", out, "SELECT 1 AS a")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	sameContent(t, out, []byte("a\n1\n"), "new file")
	umask := processUmask()
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o666&^os.FileMode(umask) {
		t.Errorf("mode %v, umask %o", fi.Mode().Perm(), umask)
	}
	for _, bad := range []string{dir, filepath.Join(dir, "no", "x.csv")} {
		code, _, errs = runBin(t, dir, "", "-o", bad, "SELECT 1")
		if code != 1 || !strings.Contains(errs, "Error: output "+bad) {
			t.Errorf("-o %s: exit %d %q", bad, code, errs)
		}
	}
	code, _, errs = runBin(t, dir, "", "-o", "/dev/null", "SELECT 1")
	if code != 0 {
		t.Errorf("-o /dev/null: exit %d %q", code, errs)
	}
	noTemps(t, dir)
}

// TestBinary_outputSignals: a run stopped by Ctrl-C (SIGINT), SIGTERM or SIGHUP
// while its statement runs leaves the output file as it was and no
// temporary file.
func TestBinary_outputSignals(t *testing.T) {
	t.Parallel()
	// Runs for minutes unless stopped, without output.
	const slow = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1e12) SELECT count(*) FROM c"
	for _, tt := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			t.Parallel()
			if tt.sig != syscall.SIGINT && signal.Ignored(tt.sig) {
				t.Skipf("%v is ignored here (nohup?), and so in the command, which keeps it so", tt.sig)
			}
			dir := t.TempDir()
			out := filepath.Join(dir, "out.csv")
			old := []byte("old\n")
			os.WriteFile(out, old, 0o644)
			cmd := exec.Command(tetsqlBin, "-o", out, slow)
			cmd.Dir = dir
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				if m, _ := filepath.Glob(filepath.Join(dir, ".out.csv.tmp-*")); len(m) == 1 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("no temporary file appeared")
				}
			}
			time.Sleep(50 * time.Millisecond) // into the statement
			cmd.Process.Signal(tt.sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("still running 10s after the signal")
			}
			if got := cmd.ProcessState.ExitCode(); got != tt.code {
				t.Errorf("exit %d, want %d", got, tt.code)
			}
			sameContent(t, out, old, "output")
			noTemps(t, dir)
		})
	}
}

// processUmask reads the umask without changing it (other tests run in
// parallel), from /proc on Linux; elsewhere it sets and restores it.
func processUmask() int {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Umask:"); ok {
				if n, err := strconv.ParseInt(strings.TrimSpace(v), 8, 32); err == nil {
					return int(n)
				}
			}
		}
	}
	u := syscall.Umask(0o22)
	syscall.Umask(u)
	return u
}

// TestBinary_outputInSparseFrame: a Blosc2 sparse frame is a directory
// read from the files in it; an output naming one of them is refused and
// the file stays as it was, while a new file beside them is allowed.
func TestBinary_outputInSparseFrame(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "sp.b2nd")
	os.Mkdir(dir, 0o755)
	src := filepath.Join("..", "..", "b2nd", "testdata", "sparse_frame.b2nd")
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		copyFile(t, filepath.Join(src, e.Name()), filepath.Join(dir, e.Name()))
	}
	chunk := filepath.Join(dir, "00000000.chunk")
	orig, err := os.ReadFile(chunk)
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs := runBin(t, dir, "", "-o", chunk, dir, "SELECT count(*) FROM sp")
	if code != 1 || !strings.Contains(errs, "is an input of this session") {
		t.Errorf("output over a chunk file: exit %d, stderr %q", code, errs)
	}
	sameContent(t, chunk, orig, "chunk file")
	out := filepath.Join(dir, "count.csv")
	if code, _, errs := runBin(t, dir, "", "-o", out, dir, "SELECT count(*) FROM sp"); code != 0 {
		t.Fatalf("new output beside the chunks: exit %d, %s", code, errs)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), "99") {
		t.Errorf("count.csv: %q %v", b, err)
	}
}
