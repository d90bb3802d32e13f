//go:build !linux

package main

import (
	"io"
	"os"
	"time"
)

// spinning is os.Stdin: polling before a read is only done on Linux.
func spinning(time.Duration) io.Reader { return os.Stdin }
