package cmdio

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// The temporary files of the process (outputs not yet committed, spools)
// and what it started that must not outlive it (an exec policy's program):
// process-wide because signals are, so that SIGINT or SIGTERM, which would
// otherwise end the process at once, removes and stops them first.
var temps struct {
	sync.Mutex
	names map[string]bool
	stops map[int]func()
	next  int
	once  sync.Once
}

func rememberTemp(name string) {
	temps.once.Do(watchSignals)
	temps.Lock()
	defer temps.Unlock()
	if temps.names == nil {
		temps.names = map[string]bool{}
	}
	temps.names[name] = true
}

func forgetTemp(name string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.names, name)
}

// OnSignal registers stop to be called when SIGINT, SIGTERM or SIGHUP ends
// the process, before it ends: for processes it started that would otherwise
// outlive it. The function it returns unregisters stop.
func OnSignal(stop func()) (cancel func()) {
	temps.once.Do(watchSignals)
	temps.Lock()
	defer temps.Unlock()
	if temps.stops == nil {
		temps.stops = map[int]func(){}
	}
	id := temps.next
	temps.next++
	temps.stops[id] = stop
	return func() {
		temps.Lock()
		defer temps.Unlock()
		delete(temps.stops, id)
	}
}

// runStops calls every function registered with OnSignal, once.
func runStops() {
	temps.Lock()
	defer temps.Unlock()
	for id, stop := range temps.stops {
		stop()
		delete(temps.stops, id)
	}
}

// removeTemps removes every temporary file still registered.
func removeTemps() {
	temps.Lock()
	defer temps.Unlock()
	for name := range temps.names {
		os.Remove(name)
		delete(temps.names, name)
	}
}

// watchSignals stops what OnSignal registered and removes the temporary
// files on SIGINT, SIGTERM or SIGHUP, then ends the process by the same
// signal, so the caller sees the usual status. A signal ignored when the
// process started is left ignored: Notify would turn it on, and nohup (which
// ignores SIGHUP) or a script's background command (SIGINT) would end at a
// hang-up or at the terminal's Ctrl-C after all.
func watchSignals() {
	var watched []os.Signal
	for _, sig := range []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(sig) {
			watched = append(watched, sig)
		}
	}
	if len(watched) == 0 {
		return
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, watched...)
	go func() {
		sig := <-c
		// Outputs being renamed into place finish first (commitAll):
		// the run then ends with all of them, never with some, and by
		// the signal.
		signalled.Store(true)
		commitMu.Lock()
		runStops()
		removeTemps()
		signal.Reset(sig)
		reraise(sig)
		os.Exit(128 + int(sig.(syscall.Signal)))
	}()
}
