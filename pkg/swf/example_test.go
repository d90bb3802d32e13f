package swf_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/swfkit/swfkit/pkg/swf"
)

func Example() {
	in := `; MaxProcs: 100
;
    1  0  30  3600  16  -1  -1  16  7200  -1  1  3  1  -1  -1  -1  -1  -1
    2 60   0    10   1  -1  -1   1    60  -1  1  4  1  -1  -1  -1  -1  -1
`
	r := swf.NewReader(strings.NewReader(in))
	h, _ := r.Header()
	procs, _, _ := h.MaxProcs()
	h.AddNote("example: job 2 marked")
	w := swf.NewWriter(os.Stdout)
	w.WriteHeader(h)
	for {
		job, err := r.Read()
		if err == io.EOF {
			break
		}
		if job.JobNumber == 2 {
			job.SetExtra("mark", "1") // changed: written in canonical form
		}
		w.Write(&job) // job 1 is written back byte-identical
	}
	w.Flush()
	fmt.Println("machine:", procs)
	// Output:
	// ; MaxProcs: 100
	// ; Note: example: job 2 marked
	// ;
	//     1  0  30  3600  16  -1  -1  16  7200  -1  1  3  1  -1  -1  -1  -1  -1
	// 2 60 0 10 1 -1 -1 1 60 -1 1 4 1 -1 -1 -1 -1 -1 mark=1
	// machine: 100
}
