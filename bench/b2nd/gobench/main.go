// Command gobench times the pure-Go Blosc2 chunk decoder
// (internal/codec/blosc) on .b2nd files, on one goroutine with
// GOMAXPROCS=1, for comparison with the C library (bench/b2nd/pydecode.py).
//
//	gobench [-reps N] [-cpuprofile FILE] DIR CASE ...
//
// For each CASE it reads DIR/CASE.b2nd into memory, parses the frame, runs
// one unmeasured pass, then decodes every stored chunk N times into one
// reused buffer of ChunkSize bytes and prints, per pass, a tab-separated
//
//	go  CASE  PASS  MB_PER_CPU_S  MB_PER_WALL_S
//
// where MB is 10^6 decoded bytes and CPU seconds are the decoding thread's
// (CLOCK_THREAD_CPUTIME_ID, the clock Python's time.thread_time reads), so
// other load on a shared machine disturbs the first figure less. Each pass checks that the decoded bytes
// are those of the unmeasured pass (a SHA-256 per chunk), so a decoder that
// goes wrong fails the benchmark instead of speeding it up.
package main

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tetsql/tetsql/b2nd"
	"github.com/tetsql/tetsql/internal/codec/blosc"
)

func main() {
	reps := flag.Int("reps", 5, "measured passes per file")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the measured passes to `FILE`")
	flag.Parse()
	if flag.NArg() < 2 {
		fmt.Fprintln(os.Stderr, "usage: gobench [-reps N] [-cpuprofile FILE] DIR CASE ...")
		os.Exit(2)
	}
	runtime.GOMAXPROCS(1)
	runtime.LockOSThread() // the thread CPU clock must be this goroutine's
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		defer pprof.StopCPUProfile()
	}
	dir := flag.Arg(0)
	for _, name := range flag.Args()[1:] {
		if err := run(filepath.Join(dir, name+".b2nd"), name, *reps); err != nil {
			pprof.StopCPUProfile()
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gobench:", err)
	os.Exit(1)
}

// run times the decoding of every stored chunk of one file.
func run(path, name string, reps int) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	f, err := b2nd.Parse(data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var chunks [][]byte
	for i := range f.Chunks {
		c, err := f.ChunkBytes(i)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if c != nil {
			chunks = append(chunks, c)
		}
	}
	buf := make([]byte, f.ChunkSize)
	sums := make([][sha256.Size]byte, len(chunks))
	for i, c := range chunks {
		if err := blosc.Decode(buf, c); err != nil {
			return fmt.Errorf("%s: chunk %d: %w", path, i, err)
		}
		sums[i] = sha256.Sum256(buf)
	}
	total := float64(len(chunks)) * float64(f.ChunkSize)
	for pass := range reps {
		start, cpu0 := time.Now(), threadCPU()
		for i, c := range chunks {
			if err := blosc.Decode(buf, c); err != nil {
				return fmt.Errorf("%s: chunk %d: %w", path, i, err)
			}
		}
		el, cpu := time.Since(start).Seconds(), threadCPU()-cpu0
		// Verify outside the timed loop: once more, chunk by chunk.
		for i, c := range chunks {
			if err := blosc.Decode(buf, c); err != nil {
				return err
			}
			if s := sha256.Sum256(buf); !bytes.Equal(s[:], sums[i][:]) {
				return fmt.Errorf("%s: chunk %d decodes differently on pass %d", path, i, pass)
			}
		}
		fmt.Printf("go\t%s\t%d\t%.1f\t%.1f\n", name, pass, total/cpu/1e6, total/el/1e6)
	}
	return nil
}

// threadCPU returns the calling thread's CPU time in seconds.
func threadCPU() float64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		fail(err)
	}
	return float64(ts.Sec) + float64(ts.Nsec)/1e9
}
