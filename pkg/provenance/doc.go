// Package provenance encodes and parses the one header line in which every
// swfkit tool records its complete effective configuration, so that the
// parameters of a study travel inside its files and any engine (a shell loop,
// GNU parallel, a Slurm job array) can run the grid while one swfstat call
// aggregates it.
//
// # The line
//
// In an SWF header the line is
//
//	; Provenance: TOOL KEY=VALUE KEY=VALUE ...
//
// an ordinary labelled header line ("Provenance" label), so a reader that does
// not know it keeps it, and every swfkit tool passes it through unchanged like
// any other header line. The text after the label is a Record:
//
//   - TOOL is the program name (swfclean, swfaugment, swfsim, swfstat);
//   - then fields separated by single spaces, each KEY=VALUE, in the order
//     the tool declares its flags; the first field is version=, then every
//     flag by its long name with its effective value, defaults included,
//     then input= for each file argument as given (input=- for standard
//     input), followed by input-sha256= (InputSHA256) for the run's main
//     input: the SHA-256 of the bytes the run read from it after
//     decompression, as 64 lowercase hexadecimal digits, so that a replay
//     can tell whether the file now at that path is the one the run read
//     (older lines have no such field); swfstat, which reads all its inputs
//     alike, follows each input= with that input's input-sha256= in its own
//     line (in its tables, never in an SWF); swfsim follows exec= with
//     one exec-file-sha256= (ExecFileSHA256: HASH:PATH) for each file its
//     exec command names; a flag naming a file the run read besides its
//     trace (swfaugment's --checkpoint-from) is followed by
//     side-input-sha256=FLAG:HASH (SideInputSHA256), the hash of the
//     bytes read from it after decompression; flags that cannot change the output (where it is written,
//     progress, verbosity, worker counts) are left out, so that one
//     configuration gives one byte-identical file wherever it is written;
//   - KEY is a flag's long name: letters, digits, '-' and '_';
//   - VALUE is written bare when it is non-empty and made only of the
//     characters A-Z a-z 0-9 . , : / + - _ @ % (numbers, names, paths,
//     comma lists), and otherwise as a Go double-quoted string literal
//     (strconv.Quote: "" for the empty string, backslash escapes for '"',
//     '\\' and control characters), so a value can hold any text;
//   - booleans are true or false, integers decimal, floats the shortest
//     decimal that reads back exactly (FormatFloat): plain from 1e-4 up to
//     1e21 (0.9, 3600), in exponent form outside (1e-07, 1e+300); older
//     lines wrote every float plain (0.0000001), which reads back to the
//     same float as well;
//   - a repeatable flag (a list) is one field per element, in order, under
//     the same KEY; an empty list is written as KEY="".
//
// A tool that runs twice in a pipeline (swfaugment | swfaugment) adds a
// second line after the first: lines are kept in header order, which is the
// order the tools ran in, and Columns names the fields of the n-th line of a
// tool TOOL_n.FLAG (swfaugment_2.seed) so that both stay apart.
//
// Parse accepts exactly what Format writes and reports the byte offset of the
// first thing it cannot read.
package provenance
