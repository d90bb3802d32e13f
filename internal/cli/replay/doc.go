// Package replay rebuilds, from the Provenance lines of a file a swfkit
// pipeline wrote, the shell commands that make its records again
// (swfstat --replay): each recorded tool with the flags whose recorded value
// is not the tool's default, piped as the records say (input=- reads the
// previous command's output).
package replay
