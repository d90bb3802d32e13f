//go:build !linux

package extpolicy

import (
	"io"
	"os"
	"time"
)

// Elsewhere the engine's ends are os.Pipe's: non-blocking, in Go's network
// poller, with deadlines of their own, so no watchdog is needed.
func newPipes() (childIn, childOut *os.File, engineIn io.WriteCloser, engineOut io.ReadCloser, w *watchdog, err error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, nil, nil, nil, nil, err
	}
	return inR, outW, inW, outR, nil, nil
}

// watchdog is not needed where pipes have deadlines.
type watchdog struct{}

func (*watchdog) run(func()) {}
func (*watchdog) Stop()      {}

// setSpin does nothing: waits sleep in Go's network poller.
func setSpin(io.Reader, time.Duration) {}
