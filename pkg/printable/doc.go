// Package printable makes text from outside the program (file names, SWF
// header lines, Provenance values) safe to draw on a figure or to write
// into an SVG or an HTML page: valid UTF-8, without control characters.
//
// Conventions: a byte that is not part of valid UTF-8 is written as the
// four characters \xNN (hex, lower case), so that two names that differ in
// such bytes stay apart; a control character (C0, DEL, C1) or a
// noncharacter XML refuses (U+FFFE, U+FFFF) as \xNN below U+0100 and \uNNNN
// above; every other character is kept. A string with nothing to replace is
// returned as it is.
package printable
