package main

import (
	"bytes"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// TestBinary_arrowStreamKilled: an Arrow stream on standard output whose
// process is made to end (SIGTERM, SIGHUP) part way is cut inside a
// message, so that a reader fails instead of taking the batches written
// so far for the whole result.
func TestBinary_arrowStreamKilled(t *testing.T) {
	t.Parallel()
	demo, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "demo.tet"))
	// Millions of rows through SQLite, seconds of output.
	const q = "SELECT p.value, c.x FROM pressure p, (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 40) SELECT x FROM c) c"
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			if signal.Ignored(sig) {
				t.Skipf("%v is ignored here (nohup?), and so in the command", sig)
			}
			cmd := exec.Command(tetsqlBin, demo, "--mode", "arrow", q)
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			// Read all along, so that the signal finds the process
			// working between two batches, not blocked in a write.
			var got bytes.Buffer
			var mu sync.Mutex
			copied := make(chan struct{})
			go func() {
				defer close(copied)
				buf := make([]byte, 32<<10)
				for {
					n, err := stdout.Read(buf)
					mu.Lock()
					got.Write(buf[:n])
					mu.Unlock()
					if err != nil {
						return
					}
				}
			}()
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				mu.Lock()
				n := got.Len()
				mu.Unlock()
				if n > 1<<20 { // a few batches in
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("no stream after 10s")
				}
			}
			cmd.Process.Signal(sig)
			<-copied
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("still running 10s after the signal")
			}
			if code := cmd.ProcessState.ExitCode(); code != 128+int(sig) {
				t.Errorf("exit %d, want %d", code, 128+int(sig))
			}
			r, err := ipc.NewReader(bytes.NewReader(got.Bytes()))
			if err != nil {
				t.Fatalf("the stream's schema: %v", err)
			}
			rows := int64(0)
			for r.Next() {
				rows += r.RecordBatch().NumRows()
			}
			if r.Err() == nil {
				t.Errorf("a stream killed after %d rows reads as complete", rows)
			}
		})
	}
}
