package cmdio

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// The temporary files of the process (outputs not yet committed, spools):
// process-wide because signals are, so that SIGINT or SIGTERM, which would
// otherwise end the process at once, removes them first.
var temps struct {
	sync.Mutex
	names map[string]bool
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

// removeTemps removes every temporary file still registered.
func removeTemps() {
	temps.Lock()
	defer temps.Unlock()
	for name := range temps.names {
		os.Remove(name)
		delete(temps.names, name)
	}
}

// watchSignals removes the temporary files on SIGINT, SIGTERM or SIGHUP, then
// ends the process by the same signal, so the caller sees the usual status.
func watchSignals() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		sig := <-c
		removeTemps()
		signal.Reset(sig)
		reraise(sig)
		os.Exit(128 + int(sig.(syscall.Signal)))
	}()
}
