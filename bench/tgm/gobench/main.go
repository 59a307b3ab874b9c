// Command gobench times the pure-Go Tensogram decoder (package tgm) on
// .tgm files, on one goroutine with GOMAXPROCS=1, for comparison with the
// reference package (bench/tgm/pydecode.py).
//
//	gobench [-reps N] [-cpuprofile FILE] DIR CASE ...
//
// For each CASE it reads DIR/CASE.tgm into memory, runs one unmeasured
// pass, then N times scans the file (tgm.Scan) and decodes every object
// of every message (Object.Decode, which verifies each object's xxh3
// hash first, as tetsql always does) into one reused buffer per object,
// printing per pass tab-separated
//
//	go     CASE  PASS  MB_PER_CPU_S  MB_PER_WALL_S
//	gonew  CASE  PASS  MB_PER_CPU_S  MB_PER_WALL_S
//	scan   CASE  PASS  MS_CPU        MS_WALL
//
// where MB is 10^6 decoded bytes and CPU seconds are the process's
// (CLOCK_PROCESS_CPUTIME_ID, the clock Python's time.process_time reads,
// so garbage collection counts). The go line times Decode alone into the
// reused buffers (as a reader that recycles its chunk buffers does); the
// gonew line decodes with no buffer, so each object gets a new one (as
// the reference package's decode, which returns new arrays, does); the
// scan line times the Scan that precedes them. Outside the timing each pass's
// output is checked against the unmeasured pass's (a SHA-256 per
// object), so a decoder that goes wrong fails the benchmark instead of
// speeding it up, and one line
//
//	sum  go  CASE  HEX
//
// gives the SHA-256 of all decoded bytes in file order, which report.py
// compares with the reference package's.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tetsql/tetsql/tgm"
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
	runtime.LockOSThread()
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
		if err := run(filepath.Join(dir, name+".tgm"), name, *reps); err != nil {
			pprof.StopCPUProfile()
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gobench:", err)
	os.Exit(1)
}

// run times scanning a file and decoding every object of it.
func run(path, name string, reps int) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	f, err := tgm.Scan(data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var bufs [][]byte // one reused output buffer per object
	var sums [][sha256.Size]byte
	whole := sha256.New()
	total := 0.0
	for _, m := range f.Messages {
		for j := range m.Objects {
			o := &m.Objects[j]
			if !o.Hashed() {
				return fmt.Errorf("%s: message %d, object %d has no hash to verify", path, o.Message, o.Index)
			}
			out, err := o.Decode(make([]byte, o.DecodedBytes()), 0)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			bufs = append(bufs, out)
			sums = append(sums, sha256.Sum256(out))
			whole.Write(out)
			total += float64(len(out))
		}
	}
	fmt.Printf("sum\tgo\t%s\t%s\n", name, hex.EncodeToString(whole.Sum(nil)))
	for pass := range reps {
		start, cpu0 := time.Now(), processCPU()
		f, err := tgm.Scan(data)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		sel, scpu := time.Since(start).Seconds(), processCPU()-cpu0
		cpu, el, err := decodeAll(f, bufs, true)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := check(bufs, sums); err != nil {
			return fmt.Errorf("%s: pass %d: %w", path, pass, err)
		}
		fmt.Printf("go\t%s\t%d\t%.1f\t%.1f\n", name, pass, total/cpu/1e6, total/el/1e6)
		fresh := make([][]byte, len(bufs))
		cpu, el, err = decodeAll(f, fresh, false)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := check(fresh, sums); err != nil {
			return fmt.Errorf("%s: pass %d (new buffers): %w", path, pass, err)
		}
		fresh = nil
		fmt.Printf("gonew\t%s\t%d\t%.1f\t%.1f\n", name, pass, total/cpu/1e6, total/el/1e6)
		fmt.Printf("scan\t%s\t%d\t%.3f\t%.3f\n", name, pass, scpu*1e3, sel*1e3)
	}
	return nil
}

// decodeAll decodes every object of f in order, into bufs[k] for the
// k-th object when reuse is set (else into a new buffer), leaves each
// output in bufs[k], and returns the process CPU and wall seconds spent.
func decodeAll(f *tgm.File, bufs [][]byte, reuse bool) (cpu, wall float64, err error) {
	start, cpu0 := time.Now(), processCPU()
	k := 0
	for _, m := range f.Messages {
		for j := range m.Objects {
			var dst []byte
			if reuse {
				dst = bufs[k]
			}
			out, err := m.Objects[j].Decode(dst, 0)
			if err != nil {
				return 0, 0, err
			}
			bufs[k] = out
			k++
		}
	}
	return processCPU() - cpu0, time.Since(start).Seconds(), nil
}

// check compares each output's SHA-256 with the first pass's.
func check(bufs [][]byte, sums [][sha256.Size]byte) error {
	for k, b := range bufs {
		if sha256.Sum256(b) != sums[k] {
			return fmt.Errorf("object %d of the file decodes differently", k)
		}
	}
	return nil
}

// processCPU returns the process's CPU time in seconds.
func processCPU() float64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		fail(err)
	}
	return float64(ts.Sec) + float64(ts.Nsec)/1e9
}
