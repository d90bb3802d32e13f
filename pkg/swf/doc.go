// Package swf reads and writes workload traces in the Standard Workload Format
// (SWF) of the Parallel Workloads Archive.
//
// Conventions:
//
//   - Times are integer seconds, as in the format; -1 means unknown in every field.
//   - Field 6 (average CPU time) is the only field that may be non-integral; every
//     other field accepts an integral float ("12.0") and rejects "12.5".
//   - A Job holds the 18 standard fields under their SWF names plus Extra, the
//     tokens after field 18 (extension columns of the form key=value), kept verbatim;
//     a key given twice in one record is an error (ErrDuplicateToken), since every
//     reader of tokens takes the first.
//   - Lossless: the Reader keeps each record's raw line; the Writer writes that line
//     back byte-identical unless a field or Extra token differs from what was read,
//     in which case it writes the canonical form (see Job.AppendCanonical).
//   - Line endings: a line read keeps its own (CRLF or LF, even mixed in one file);
//     a line the Writer composes (a canonical record, a header line a tool added)
//     ends like the line written before it, and the last line of a CRLF file that
//     lacks its newline is read as ending in CRLF, so a CRLF trace stays CRLF.
//   - A last record line without a newline after it is read like any other;
//     Reader.UnterminatedLine names it, since it is also where a file cut short
//     ends (a cut inside the last field leaves a shorter number that parses).
//   - Comment and blank lines between jobs are kept with the job they precede
//     (Job.Comments) and comment lines after the last job are in Reader.Trailer.
//   - The Reader sees a plain io.Reader: decompression is the caller's business.
//   - With Reader.ReuseRecord, the slices of a returned Job (Extra, Comments and the
//     raw line) are only valid until the next call to Read, and Read does not allocate.
package swf
