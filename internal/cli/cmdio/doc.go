// Package cmdio is the plumbing every swfkit command shares: opening an input
// file or standard input with compression detected from magic bytes, creating an
// output file or standard output with compression chosen by the file extension,
// the common urfave/cli application setup, and the mapping of errors to exit codes
// (0 success, 1 bad input or I/O error, 2 usage; a closed pipe ends quietly with 0).
package cmdio
