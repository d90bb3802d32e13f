// Package adversarial holds the process-level adversarial suite of issue 11:
// its tests build the four commands (or use the binaries in $SWFKIT_BIN) and
// run them as a user's script would, against the promises the README makes
// about files ("What the tools promise about your files"): no tool destroys
// a file (devices, FIFOs, symbolic links, permissions, its own inputs),
// accepts a truncated or corrupt input, panics, or wraps a number.
//
// Devices and FIFOs are made in temporary directories (mknod needs root; the
// device cases skip loudly without it); the real /dev nodes are never a
// target. Every case failed on the commands before issue 11 (commit 7bd03c5):
//
//	SWFKIT_BIN=/path/to/old/bin go test ./internal/adversarial
//
// reports them as failures. The package has no code of its own.
package adversarial
