//go:build unix

package cmdio

import (
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// writeAccess returns why the user may not write the existing file path
// (EACCES, or EROFS on a read-only file system), nil when they may.
func writeAccess(path string) error { return unix.Access(path, unix.W_OK) }

// keepOwner gives f the owner and group of the file it replaces, where the
// system allows it (root replacing a user's file); best effort, since only
// root may give a file away.
func keepOwner(f *os.File, replaced fs.FileInfo) {
	if st, ok := replaced.Sys().(*syscall.Stat_t); ok && (int(st.Uid) != os.Getuid() || int(st.Gid) != os.Getgid()) {
		_ = f.Chown(int(st.Uid), int(st.Gid))
	}
}

// openReadWrite reports whether descriptor f is open, and if so whether it
// was opened read-write.
func openReadWrite(f *os.File) (rw, open bool) {
	flags, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	if err != nil {
		return false, false
	}
	return flags&unix.O_ACCMODE == unix.O_RDWR, true
}

// descriptorState says how the process's descriptor fd is open: whether it
// is, whether for writing, and whether it is one the Go runtime made for
// itself (an anonymous inode: epoll, eventfd, pidfd), which no redirection
// gives;
// target is what it is open on, where the system says (Linux), else "".
func descriptorState(fd int) (open, writes, own bool, target string) {
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return false, false, false, ""
	}
	target, _ = os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	return true, flags&unix.O_ACCMODE != unix.O_RDONLY, strings.HasPrefix(target, "anon_inode:"), target
}

// fileID identifies a file: its device and inode number.
type fileID struct{ dev, ino uint64 }

// fileIdentity returns info's device and inode, which os.SameFile compares
// on unix; false when info does not come from stat(2).
func fileIdentity(info fs.FileInfo) (fileID, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	// The conversions are for the systems whose Dev is an int32 (darwin).
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}

// reraise ends the process by sig, its default action restored, so the
// caller sees the usual status; it returns if that did not end it.
//
// kill(2) only makes the signal pending: another thread may take it, later
// than kill returns, and the caller's fallback exit would win the race (a
// status 128+signal, after which a shell loop goes on where it stops after a
// command killed by SIGINT). So it waits for the signal before it returns.
func reraise(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		_ = syscall.Kill(os.Getpid(), s)
		time.Sleep(time.Second)
	}
}

// tempDirVariable is the environment variable that names the temporary
// folder (os.TempDir).
const tempDirVariable = "TMPDIR"
