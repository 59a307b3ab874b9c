package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// procStatus reads the kB fields of /proc/self/status.
func procStatus() map[string]int64 {
	m := map[string]int64{}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return m
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 2 && f[1] == "kB" {
			if x, err := strconv.ParseInt(f[0], 10, 64); err == nil {
				m[k] = x
			}
		}
	}
	return m
}

// cmdMem runs SQL once on DSN (after opening the file with a trivial
// query) while sampling /proc/self/status every D, and prints the peaks
// of VmRSS, RssAnon and RssFile, and VmHWM at the end. Run it in a fresh
// process per measurement: VmHWM is the peak over the process's life.
func cmdMem(args []string) error {
	fs := flag.NewFlagSet("mem", flag.ExitOnError)
	every := fs.Duration("every", 2*time.Millisecond, "sampling interval")
	fs.Parse(args)
	if fs.NArg() != 3 {
		usage()
	}
	ctx := context.Background()
	db, conn, err := open(ctx, fs.Arg(0), nil)
	if err != nil {
		return err
	}
	defer db.Close()
	defer conn.Close()
	if _, err := runQuery(ctx, conn, "SELECT count(*) FROM tet_datasets"); err != nil {
		return err
	}
	before := procStatus()
	peak := map[string]int64{}
	var mu sync.Mutex
	sampleNow := func() {
		s := procStatus()
		mu.Lock()
		for _, k := range []string{"VmRSS", "RssAnon", "RssFile", "RssShmem"} {
			peak[k] = max(peak[k], s[k])
		}
		mu.Unlock()
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(*every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sampleNow()
			}
		}
	}()
	t0 := time.Now()
	res, err := runQuery(ctx, conn, fs.Arg(2))
	wall := time.Since(t0)
	sampleNow()
	close(done)
	wg.Wait()
	if err != nil {
		return err
	}
	end := procStatus()
	fmt.Printf("result\t%s%s\n", fs.Arg(1), res)
	fmt.Printf("mem\t%s\t%.3f\tVmHWM=%d\tpeak_VmRSS=%d\tpeak_RssAnon=%d\tpeak_RssFile=%d\tbefore_RssAnon=%d\tbefore_RssFile=%d\tend_RssAnon=%d\tend_RssFile=%d\n",
		fs.Arg(1), wall.Seconds(), end["VmHWM"], peak["VmRSS"], peak["RssAnon"], peak["RssFile"],
		before["RssAnon"], before["RssFile"], end["RssAnon"], end["RssFile"])
	return nil
}
