//go:build !unix

package cmdio

import (
	"io/fs"
	"os"
)

// writeAccess returns fs.ErrPermission unless the user may write the
// existing file path: on systems without access(2), unless its mode has an
// owner write bit (Windows's read-only attribute clears it).
func writeAccess(path string) error {
	if info, err := os.Stat(path); err != nil || info.Mode().Perm()&0o200 == 0 {
		return fs.ErrPermission
	}
	return nil
}

// keepOwner does nothing where files have no Unix owner.
func keepOwner(*os.File, fs.FileInfo) {}

// openReadWrite cannot tell how a descriptor was opened here: standard output
// is taken as open and not read-write, so it is never mistaken for a closed
// one.
func openReadWrite(*os.File) (rw, open bool) { return false, true }

// descriptorState cannot tell how a descriptor is open here: taken as open
// for writing.
func descriptorState(int) (open, writes, own bool, target string) { return true, true, false, "" }

// fileID would identify a file; nothing does here (see fileIdentity).
type fileID struct{}

// fileIdentity has no identity to give where os.SameFile compares files by
// other means (Windows's volume serial and file index, read on demand):
// SameFiles compares them with os.SameFile instead.
func fileIdentity(fs.FileInfo) (fileID, bool) { return fileID{}, false }

// reraise cannot re-send a signal here; the caller exits with 128+signal.
func reraise(os.Signal) {}

// tempDirVariable is the environment variable that names the temporary
// folder (os.TempDir reads TMP first on Windows).
const tempDirVariable = "TMP"
