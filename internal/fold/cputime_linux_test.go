//go:build linux

package fold_test

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time consumed by the calling OS thread, which
// time-sharing with other processes does not inflate. The caller locks
// its goroutine to the thread.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
