package statcli

import (
	"fmt"
	"io"
	"strings"

	"github.com/swfkit/swfkit/internal/cli/cmdio"
)

// writeSHA256 writes, for each input, the SHA-256 of its decompressed bytes
// (cmdio.OpenHashed: what swfclean, swfaugment and swfsim record as
// input-sha256) in sha256sum's format, "HASH  FILE", "-" for standard
// input, so that a script can check a file against a run's Provenance
// whatever its compression, with the tools' own reading of it. A name
// holding a line break or a backslash is escaped as sha256sum does: a
// leading backslash, then \n and \\ in the name.
func writeSHA256(w io.Writer, inputs []string, files *cmdio.Files) error {
	for _, f := range inputs {
		rc, d, err := files.OpenHashed(f)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, rc)
		rc.Close()
		if err != nil {
			return cmdio.InFile(cmdio.DisplayName(f), err)
		}
		sum, _ := d.Sum()
		name, escaped := f, ""
		if cmdio.IsStdio(f) {
			name = "-"
		}
		if strings.ContainsAny(name, "\\\n") {
			name = strings.NewReplacer("\\", "\\\\", "\n", "\\n").Replace(name)
			escaped = "\\"
		}
		if _, err := fmt.Fprintf(w, "%s%s  %s\n", escaped, sum, name); err != nil {
			return err
		}
	}
	return nil
}
