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

// The cut last field is read as what is left of it: the Reader cannot tell
// 12 from 120, which is why UnterminatedLine exists.
func ExampleReader_UnterminatedLine() {
	in := "; MaxProcs: 10\n1 0 0 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 12" // cut from ... 120\n
	r := swf.NewReader(strings.NewReader(in))
	r.Name = "nonl.swf"
	for {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("think time", j.ThinkTime)
	}
	if n := r.UnterminatedLine(); n > 0 {
		fmt.Printf("%s:%d: the last record has no newline after it\n", r.Name, n)
	}
	// Output:
	// think time 12
	// nonl.swf:2: the last record has no newline after it
}
