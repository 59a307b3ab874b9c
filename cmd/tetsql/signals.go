package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/tetsql/tetsql/cmd/tetsql/internal/output"
)

// onInterrupt makes the first Ctrl-C (SIGINT) of a script run call
// cancel, which stops the running statement so the run ends normally
// and settles its output files; a second one removes the temporary
// output files and exits with status 130 at once. The returned func
// stops listening.
func onInterrupt(cancel func()) (stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-done:
			return
		}
		select {
		case <-sigs:
			output.RemoveTemps()
			os.Exit(exitInterrupted)
		case <-done:
		}
	}()
	return func() { signal.Stop(sigs); close(done) }
}

// onTerminate removes the temporary output files and exits when the
// process is asked to end (SIGTERM, or SIGHUP when the terminal goes),
// so that no ".NAME.tmp-*" file is left behind. Signals the process was
// started with ignored (nohup) stay ignored.
func onTerminate() (stop func()) {
	var want []os.Signal
	for _, sig := range []os.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(sig) {
			want = append(want, sig)
		}
	}
	if len(want) == 0 {
		return func() {}
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, want...)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			output.RemoveTemps()
			os.Exit(128 + int(sig.(syscall.Signal)))
		case <-done:
		}
	}()
	return func() { signal.Stop(sigs); close(done) }
}
