package cmdio

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"slices"

	"github.com/swfkit/swfkit/pkg/provenance"
)

// Digest is the SHA-256 of the bytes read through it: wrapped around an
// opened input (after decompression), it hashes the trace as the run reads
// it, with no second read, so that standard input and pipes are hashed too.
// Its sum is known only once the reader returned io.EOF: before, it would
// be the hash of a prefix, which no Provenance line may record.
type Digest struct {
	r    io.Reader
	h    hash.Hash
	done bool // io.EOF seen: every byte was hashed
}

// NewDigest hashes what is read from r.
func NewDigest(r io.Reader) *Digest { return &Digest{r: r, h: sha256.New()} }

func (d *Digest) Read(p []byte) (int, error) {
	if d.r == nil {
		return 0, io.EOF
	}
	n, err := d.r.Read(p)
	d.h.Write(p[:n])
	if err == io.EOF {
		// The reader (a decompressor and its buffers, hundreds of KB) is
		// let go: a caller that keeps the Digest for its sum, as swfstat
		// does for each of thousands of inputs, keeps only the hash.
		d.done, d.r = true, nil
	}
	return n, err
}

// Sum returns the hash as 64 lowercase hexadecimal digits, and false while
// the input has not been read to its end.
func (d *Digest) Sum() (string, bool) {
	if d == nil || !d.done {
		return "", false
	}
	return hex.EncodeToString(d.h.Sum(nil)), true
}

// hashedInput is an opened input read through a Digest.
type hashedInput struct {
	*Digest
	io.Closer
}

// OpenHashed opens an input as Open does and hashes its decompressed bytes
// as they are read: the run's main input, whose hash its Provenance line
// records (WithInputSHA256).
func (fs *Files) OpenHashed(name string) (io.ReadCloser, *Digest, error) {
	rc, err := fs.Open(name)
	if err != nil {
		return nil, nil, err
	}
	d := NewDigest(rc)
	return hashedInput{d, rc}, d, nil
}

// WithInputSHA256 returns r with the input's hash added after its input=
// field (provenance.InputSHA256), when d has hashed the whole input; r
// unchanged otherwise, since a hash of part of the input would be wrong.
// r's fields are copied, not shared.
func WithInputSHA256(r provenance.Record, d *Digest) provenance.Record {
	sum, ok := d.Sum()
	if !ok {
		return r
	}
	r.Fields = slices.Clone(r.Fields)
	at := len(r.Fields)
	for i, f := range r.Fields {
		if f.Key == "input" {
			at = i + 1
		}
	}
	r.Fields = slices.Insert(r.Fields, at, provenance.Field{Key: provenance.InputSHA256, Value: sum})
	return r
}

// WithSideInputSHA256 returns r with, after the field of the flag named
// flag (its long name), the hash of the file the run read from it
// (provenance.SideInputSHA256, FLAG:HASH), when d has hashed the whole file;
// r unchanged otherwise (no such flag field, a nil Digest, a file not read
// to its end). r's fields are copied, not shared.
func WithSideInputSHA256(r provenance.Record, flag string, d *Digest) provenance.Record {
	sum, ok := d.Sum()
	if !ok {
		return r
	}
	at := slices.IndexFunc(r.Fields, func(f provenance.Field) bool { return f.Key == flag })
	if at < 0 {
		return r
	}
	r.Fields = slices.Insert(slices.Clone(r.Fields), at+1, provenance.Field{Key: provenance.SideInputSHA256, Value: flag + ":" + sum})
	return r
}

// WithEachInputSHA256 returns r with, after its k-th input= field, the hash
// of the k-th input (ds[k]), for a run that reads several inputs alike and
// records them all (swfstat): each input= is followed by its own
// input-sha256=. An input not read to its end (or a nil Digest) gets none,
// as in WithInputSHA256. r's fields are copied, not shared.
func WithEachInputSHA256(r provenance.Record, ds []*Digest) provenance.Record {
	fields := make([]provenance.Field, 0, len(r.Fields)+len(ds))
	k := 0
	for _, f := range r.Fields {
		fields = append(fields, f)
		if f.Key != "input" {
			continue
		}
		if k < len(ds) {
			if sum, ok := ds[k].Sum(); ok {
				fields = append(fields, provenance.Field{Key: provenance.InputSHA256, Value: sum})
			}
		}
		k++
	}
	r.Fields = fields
	return r
}

// RawFileSHA256 hashes a regular file's bytes as they are (no
// decompression): what a Provenance line's exec-file-sha256 records for the
// files an exec command names.
//
// As FileSHA256, only a regular file is opened: opening a FIFO would block.
func RawFileSHA256(name string) (string, error) {
	if info, err := os.Stat(name); err != nil {
		return "", err
	} else if !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s: not a regular file, not read", name)
	}
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", InFile(DisplayName(name), err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// FileSHA256 hashes the decompressed bytes of a file as a run reads them
// (Open, then Digest): what a Provenance line's input-sha256 records. Only a
// regular file is read: a pipe, FIFO or device named by an old run
// (/dev/fd/63 from <(...)) would be consumed or block.
func FileSHA256(name string) (string, error) {
	if info, err := os.Stat(name); err != nil {
		return "", err
	} else if !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s: not a regular file, not read: a pipe or a device would be consumed", name)
	}
	rc, err := Open(name, nil)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	d := NewDigest(rc)
	if _, err := io.Copy(io.Discard, d); err != nil {
		return "", InFile(DisplayName(name), err)
	}
	sum, _ := d.Sum()
	return sum, nil
}
