package statcli

import (
	"errors"
	"fmt"
	"io"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/stats"
	"github.com/swfkit/swfkit/pkg/swf"
)

// trace is one input, read.
type trace struct {
	file, display, label string
	machine              stats.Machine
	collector            *stats.Collector
	malformed            int
	firstMalformed       error
}

// readTrace reads one input into a Collector. The machine size is --procs,
// else the header's MaxProcs, else its MaxNodes.
func readTrace(file, label string, o *options, stdin io.Reader) (*trace, error) {
	t := &trace{file: file, display: cmdio.DisplayName(file), label: label}
	rc, err := cmdio.Open(file, stdin)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	r := swf.NewReader(rc)
	r.Name = t.display
	r.ReuseRecord = true
	r.Lenient = o.lenient
	hdr, err := r.Header()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.display, err)
	}
	if t.machine, err = machineOf(hdr, o.procs); err != nil {
		return nil, err
	}
	t.collector = stats.NewCollector(o.cfg, t.machine)
	if n, ok, err := hdr.MaxJobs(); err == nil && ok && n > 0 {
		t.collector.Grow(int(min(n, 1<<24))) // a hint only: headers of cut files overstate it
	}
	var job swf.Job // one Job for the whole file: Read reuses its slices, Add copies
	for {
		job, err = r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, notSWF(t.display, err)
		}
		if err := t.collector.Add(&job); err != nil {
			return nil, fmt.Errorf("%s: %w", t.display, err)
		}
	}
	t.malformed, _ = r.Malformed()
	if _, first := r.Malformed(); len(first) > 0 {
		t.firstMalformed = first[0]
	}
	if t.collector.Len() == 0 && t.malformed > 0 {
		return nil, fmt.Errorf("%s: no valid SWF record (%d malformed lines skipped; first: %v)", t.display, t.malformed, t.firstMalformed)
	}
	return t, nil
}

// notSWF adds a hint to the first parse error of a file.
func notSWF(display string, err error) error {
	var pe *swf.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%w (is %s an SWF trace? each record needs 18 numeric fields, then key=value tokens)", err, display)
	}
	return fmt.Errorf("%s: %w", display, err)
}

// machineOf returns the machine size: --procs when given (it overrides the
// header, and Source says which value it replaces), else the header's
// MaxProcs, else its MaxNodes.
func machineOf(hdr *swf.Header, procs int64) (stats.Machine, error) {
	for _, label := range []string{"MaxProcs", "MaxNodes"} {
		v, ok, err := hdr.Int(label)
		if err != nil && procs <= 0 {
			return stats.Machine{}, err
		}
		if err == nil && ok && v > 0 {
			if procs <= 0 {
				return stats.Machine{Procs: v, Source: label}, nil
			}
			if v != procs {
				return stats.Machine{Procs: procs, Source: fmt.Sprintf("--procs, overriding header %s %d", label, v)}, nil
			}
			break
		}
	}
	if procs > 0 {
		return stats.Machine{Procs: procs, Source: "--procs"}, nil
	}
	return stats.Machine{}, nil
}
