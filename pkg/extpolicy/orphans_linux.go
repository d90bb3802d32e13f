package extpolicy

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

var subreaperOnce sync.Once

// becomeSubreaper makes this process (swfsim) a child subreaper: a process
// the program started that is orphaned, such as one that called setsid()
// and so left the program's process group, is reparented here instead of
// to init, where killOrphans finds it. Failing (a kernel before 3.4) only
// leaves such processes to init, as before.
func becomeSubreaper() {
	subreaperOnce.Do(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

// orphanWait bounds how long killOrphans waits for the members of the
// program's process group, killed already, to exit and hand their
// children over.
const orphanWait = time.Second

// killOrphans kills and reaps the processes that the program (its pid is
// group, the id of its process group) started and that were reparented to
// this process: living ones carry the program's token in their environment
// (runEnv); dead ones (zombies, whose environment cannot be read) are
// members of its group, or in a session other than this process's (they
// called setsid(), which no child this process starts does, so they are
// orphans no one else waits for). Children this process started itself
// carry no token and are in its session, so they are left alone. Call it only once
// the program itself has been waited for: the program is a child of this
// process, which os/exec must reap, not this.
func killOrphans(group int, token string) {
	self := os.Getpid()
	session, _ := unix.Getsid(0)
	want := []byte(runEnv + "=" + token)
	deadline := time.Now().Add(orphanWait)
	for {
		// Whether the group was empty before the scan: then its members
		// have all exited, and handed their children over, before it.
		groupGone := errors.Is(syscall.Kill(-group, 0), syscall.ESRCH)
		found := false
		dir, err := os.ReadDir("/proc")
		if err != nil {
			return
		}
		for _, e := range dir {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == group {
				continue
			}
			state, ppid, pgrp, sid, ok := procStat(pid)
			if !ok || ppid != self {
				continue
			}
			// A child of this process stays so until this process reaps
			// it: its pid cannot be reused between the checks and the kill.
			zombie := state == 'Z' && (pgrp == group || sid != session)
			if zombie || (state != 'Z' && hasEnv(pid, want)) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				var ws syscall.WaitStatus
				_, _ = syscall.Wait4(pid, &ws, 0, nil)
				found = true
			}
		}
		if (!found && groupGone) || time.Now().After(deadline) {
			return
		}
		if !found {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// procStat returns the state, parent pid, process group and session of
// process pid.
func procStat(pid int) (state byte, ppid, pgrp, sid int, ok bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, 0, 0, false
	}
	// pid (comm) state ppid pgrp ...: comm may hold blanks and parentheses.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, 0, 0, false
	}
	f := bytes.Fields(stat[i+1:])
	if len(f) < 4 || len(f[0]) != 1 {
		return 0, 0, 0, 0, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgrp, err2 := strconv.Atoi(string(f[2]))
	sid, err3 := strconv.Atoi(string(f[3]))
	return f[0][0], ppid, pgrp, sid, err1 == nil && err2 == nil && err3 == nil
}

// hasEnv reports whether process pid started with the variable setting
// want (NAME=VALUE) in its environment.
func hasEnv(pid int, want []byte) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for v := range bytes.SplitSeq(env, []byte{0}) {
		if bytes.Equal(v, want) {
			return true
		}
	}
	return false
}
