package augmentcli

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
	"github.com/swfkit/swfkit/pkg/swf"
)

// trace is the run's input, read once or, when the operations need a
// survey of the whole trace first, twice: a regular file is opened again;
// anything else (standard input, a pipe such as <(...), a FIFO, a device)
// can be read only once, so its decompressed text is copied to a spool file
// on the first read and the second reads the spool.
type trace struct {
	files  *cmdio.Files
	name   string
	in     io.ReadCloser
	digest *cmdio.Digest // of the first read: the one the Provenance line records
	copy   *spoolCopy    // nil: a regular file, or a run that reads once
	spool  *os.File

	second       io.ReadCloser // the second read of a regular file
	secondDigest *cmdio.Digest
}

// openTrace opens the input; twice says whether the run may read it twice.
func openTrace(files *cmdio.Files, name string, twice bool) (*trace, error) {
	in, digest, err := files.OpenHashed(name)
	if err != nil {
		return nil, err
	}
	t := &trace{files: files, name: name, in: in, digest: digest}
	if twice && cmdio.ReadOnce(name) {
		if t.spool, err = cmdio.CreateTemp("swfaugment-input-"); err != nil {
			in.Close()
			return nil, fmt.Errorf("temporary copy of %s (read twice): %w", cmdio.DisplayName(name), err)
		}
		t.copy = &spoolCopy{r: in, w: bufio.NewWriterSize(cmdio.TempWriter(t.spool), 64<<10), name: cmdio.DisplayName(name)}
	}
	return t, nil
}

// reader returns the reader of the first read.
func (t *trace) reader(lenient bool) *swf.Reader {
	var rd *swf.Reader
	if t.copy != nil {
		rd = cmdio.NewSWFReaderThrough(t.copy, t.in, cmdio.DisplayName(t.name))
	} else {
		rd = cmdio.NewSWFReader(t.in, cmdio.DisplayName(t.name))
	}
	rd.Lenient = lenient
	return rd
}

// single says that the run reads the input once: the spool copy stops.
func (t *trace) single() {
	if t.copy != nil {
		t.copy.w = nil
	}
}

// again returns a reader of the second read, past the header (the first
// read's header is the run's).
func (t *trace) again(lenient bool) (*swf.Reader, error) {
	var src io.Reader
	if t.copy != nil {
		if err := t.copy.w.Flush(); err != nil {
			return nil, t.copy.failed(err)
		}
		t.copy.w = nil
		if _, err := t.spool.Seek(0, io.SeekStart); err != nil {
			return nil, t.copy.failed(err)
		}
		src = t.spool
	} else {
		in, digest, err := t.files.OpenHashed(t.name)
		if err != nil {
			return nil, err
		}
		t.second, t.secondDigest = in, digest
		src = in
	}
	// The damage check reads the second open of a regular file itself (a
	// spool holds text the first read checked).
	rd := cmdio.NewSWFReader(src, cmdio.DisplayName(t.name))
	rd.Lenient = lenient
	if _, err := rd.Header(); err != nil {
		return nil, err
	}
	return rd, nil
}

// unchanged returns an error when a regular file read twice gave different
// bytes: the output's jobs would then be none of its versions' own.
func (t *trace) unchanged() error {
	if t.secondDigest == nil {
		return nil
	}
	first, ok1 := t.digest.Sum()
	second, ok2 := t.secondDigest.Sum()
	if ok1 && ok2 && first != second {
		return fmt.Errorf("%s changed while it was read twice (swfaugment reads a file once to survey the whole trace, once to write it): sha256 %s, then %s; run again on a file that does not change", cmdio.DisplayName(t.name), first, second)
	}
	return nil
}

// close closes the input and removes the spool.
func (t *trace) close() {
	t.in.Close()
	if t.second != nil {
		t.second.Close()
	}
	if t.spool != nil {
		cmdio.RemoveTemp(t.spool)
	}
}

// spoolCopy copies what is read from r to w while w is not nil.
type spoolCopy struct {
	r    io.Reader
	w    *bufio.Writer
	name string
}

func (c *spoolCopy) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 && c.w != nil {
		if _, werr := c.w.Write(p[:n]); werr != nil {
			return n, c.failed(werr)
		}
	}
	return n, err
}

func (c *spoolCopy) failed(err error) error {
	return fmt.Errorf("temporary copy of %s (read twice): %w", c.name, err)
}

// bodySpool holds the output's jobs while the header's Notes are not known.
type bodySpool struct {
	f *os.File
	w *swf.Writer
}

// newBodySpool returns a spool whose lines continue the header as rd's
// output writes it (swf.Writer.FollowHeader): hdr must be final but for
// the Notes and the Provenance line.
func newBodySpool(rd *swf.Reader, hdr *swf.Header) (*bodySpool, error) {
	f, err := cmdio.CreateTemp("swfaugment-body-")
	if err != nil {
		return nil, fmt.Errorf("temporary file for the output's jobs: %w", err)
	}
	w := swf.NewWriter(cmdio.TempWriter(f))
	w.FollowHeader(rd, hdr)
	return &bodySpool{f: f, w: w}, nil
}

// copyTo writes the spooled jobs to out.
func (b *bodySpool) copyTo(out io.Writer) error {
	if _, err := b.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("temporary file for the output's jobs: %w", err)
	}
	_, err := io.Copy(out, bufio.NewReaderSize(b.f, 64<<10))
	return err
}

// remove removes the spool.
func (b *bodySpool) remove() { cmdio.RemoveTemp(b.f) }
