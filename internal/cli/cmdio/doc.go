// Package cmdio is the plumbing every swfkit command shares: the common
// urfave/cli application setup, the mapping of errors to exit codes (0
// success, 1 bad input or I/O error, 2 usage; a closed pipe ends quietly with
// 0 unless files the run was to write are left unwritten), and every file a
// command reads or writes.
//
// Inputs: Open detects gzip, zstd, bzip2 and xz from the first bytes; a
// compressed stream that is truncated, fails a check or is followed by bytes
// that are not another gzip member (TrailingDataError) is a *CorruptError
// naming the file, never an end of file.
//
// Outputs: a command registers every file it reads and writes with a Files
// set before it opens any. Files.Check refuses (a usage error) an output that
// is the same file as an input; Files.Create writes a regular file or a new
// path through a temporary file renamed into place (keeping the old file's
// mode, writing through symbolic links) and writes devices, FIFOs and
// /dev/stdout directly; Files.Finish commits every output only when the whole
// run succeeded. Temporary files, and spools from CreateTemp, are removed if
// the process gets SIGINT, SIGTERM or SIGHUP. Mains pass Stdout() as the
// command's standard output, so that output into a closed one is exit 1.
//
// Numbers: Run refuses numeric flag values that are not plain decimal (hex,
// '_') or not finite (NaN, Inf) as usage errors, for every command.
package cmdio
