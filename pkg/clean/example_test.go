package clean_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/swfkit/swfkit/pkg/clean"
	"github.com/swfkit/swfkit/pkg/swf"
)

const trace = `; MaxProcs: 64
; MaxRecords: 3
1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1
2 5 -1 0 -1 -1 -1 -1 -1 -1 5 2 1 -1 -1 -1 -1 -1
3 9 0 50 0 0 -1 128 0 -1 1 1 1 -1 -1 -1 -1 -1
`

func ExampleChecker() {
	r := swf.NewReader(strings.NewReader(trace))
	hdr, _ := r.Header()
	c := clean.NewChecker(hdr)
	for {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		c.Check(&j)
	}
	for _, f := range c.Result().Fired {
		fmt.Println(f.Name, f.Count, f.Lines)
	}
	// Output:
	// start_undef 1 [4]
	// proc_zero 1 [5]
	// proc_zero_success 1 [5]
	// proc_req_too_many 1 [5]
	// cpu_zero 1 [5]
	// run_req_zero 1 [5]
	// proc_none_completed 1 [5]
	// header_maxprocs 1 [1]
}

func ExampleCleaner() {
	r := swf.NewReader(strings.NewReader(trace))
	hdr, _ := r.Header()
	c, err := clean.New(hdr, clean.Config{Rules: clean.DefaultRules()})
	if err != nil {
		panic(err)
	}
	w := swf.NewWriter(os.Stdout)
	for {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if c.Apply(&j) {
			w.Write(&j)
		}
	}
	w.Flush()
	rep := c.Report(0)
	fmt.Println(rep.RecordsRead, "read =", rep.Written, "written +", rep.Dropped, "dropped")
	for _, s := range rep.Steps {
		if s.Dropped+s.Changed > 0 {
			fmt.Println(s.Name, s.Dropped, s.Changed)
		}
	}
	// Output:
	// 1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1
	// 3 read = 1 written + 2 dropped
	// cancelled_unstarted 1 0
	// too_big 1 0
}
