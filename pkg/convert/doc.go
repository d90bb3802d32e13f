// Package convert turns scheduler logs that are not SWF into SWF records and a
// header, accounting for every input line. One file per format:
//
//   - sacct.go: Slurm's `sacct --parsable2` output (ReadSacct)
//   - alea.go: the Alea simulator's format that MetaCentrum publishes (ReadAlea)
//
// What every format shares (convert.go): a converter collects one pending record
// per job with absolute Unix times and names; Result then orders the jobs by
// submit time (ties in input order), numbers them 1..n, makes submit times
// relative to the first submit (the header's UnixStartTime), maps user, group,
// queue and partition names to integers in order of first appearance in that
// order, and keeps the original job id as the extension token jobid=ID so every
// SWF job can be traced back to its line.
//
// Conventions: times are integer seconds; -1 is unknown in every field, as in
// SWF; a field the log does not have is -1, never a guess. Errors are
// *swf.ParseError values naming the file, the line and the column, wrapping one of
// this package's sentinel errors; every value is bounded where it is read (times
// within swf.MaxTime, processors within swf.MaxProcessors, sizes within
// MaxMemoryKB), so a converted log always reads back as SWF and no error names
// a line of it. With Config.Lenient a malformed line is counted
// and skipped instead (the first few errors are kept); a header that cannot be
// read is always an error. Accounting says where every line went: Lines =
// HeaderLines + BlankLines + JobLines + StepLines + skipped + Malformed.
// Library code neither prints nor exits; warnings are returned in Result.
package convert
