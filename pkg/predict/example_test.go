package predict_test

import (
	"fmt"

	"github.com/swfkit/swfkit/pkg/predict"
)

func Example() {
	p, _ := predict.New("last2")
	c, _ := predict.NewCorrector("ladder", nil)
	user := predict.Job{User: 3, Estimate: 7200}
	fmt.Println(p.Predict(user)) // no history yet: the user estimate
	p.Terminated(user, 600)
	p.Terminated(user, 1000)
	fmt.Println(p.Predict(user)) // average of the last two
	fmt.Println(c.Correct(800, user.Estimate))
	// Output:
	// 7200
	// 800
	// 900 true
}
