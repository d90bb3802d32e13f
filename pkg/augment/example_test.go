package augment_test

import (
	"fmt"
	"strings"

	"github.com/swfkit/swfkit/pkg/augment"
	"github.com/swfkit/swfkit/pkg/swf"
)

func ExampleScaleLoad() {
	rd := swf.NewReader(strings.NewReader(`; MaxProcs: 4
1 0 0 100 2 -1 -1 2 100 -1 1 1 1 -1 -1 -1 -1 -1
2 100 0 100 2 -1 -1 2 100 -1 1 1 1 -1 -1 -1 -1 -1
3 400 0 100 4 -1 -1 4 100 -1 1 1 1 -1 -1 -1 -1 -1
`))
	h, _ := rd.Header()
	var jobs []swf.Job
	for {
		j, err := rd.Read()
		if err != nil {
			break
		}
		jobs = append(jobs, j)
	}
	machine, _, _ := h.MaxProcs()
	rep, err := augment.ScaleLoad(jobs, machine, 2, 0)
	if err != nil {
		panic(err)
	}
	for _, j := range jobs {
		fmt.Println(j.JobNumber, j.SubmitTime)
	}
	fmt.Printf("offered load %.3f -> %.3f\n", rep.Before, rep.After)
	// Output:
	// 1 0
	// 2 50
	// 3 200
	// offered load 0.500 -> 1.000
}
