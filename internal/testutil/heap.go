package testutil

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// PeakHeap records in *peak the largest heap (bytes in live and not yet
// swept objects, runtime/metrics, which unlike runtime.ReadMemStats does
// not stop the world and so does not slow the run it measures), sampled
// every 10 ms from a collection on, until stop is called. Benchmarks report
// it as the memory a run needs.
func PeakHeap(peak *uint64) (stop func()) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !done.Load() {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > *peak {
				*peak = v
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	return func() { done.Store(true); wg.Wait() }
}
