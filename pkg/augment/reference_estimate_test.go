package augment_test

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/swfkit/swfkit/pkg/augment"
	"github.com/swfkit/swfkit/pkg/swf"
)

// refEstWant is the model's verdict on one job of an estimate transform.
type refEstWant struct {
	touched bool    // false: the job is written back byte-identical
	vals    []int64 // the value is one of these; nil: in [lo, hi]
	lo, hi  int64
	// keepUser: --error-untouched user on a job not converted; field 9 stays,
	// and with --as-prediction a pred= is removed.
	keepUser bool
}

// refWriteRead writes jobs as swf.Writer does and reads them back, so the
// library path is held to the same byte-identity as the command.
func refWriteRead(t testing.TB, h *swf.Header, jobs []swf.Job) []swf.Job {
	t.Helper()
	var buf bytes.Buffer
	w := swf.NewWriter(&buf)
	if err := w.WriteHeader(h); err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		if err := w.Write(&jobs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return refRead(t, buf.Bytes()).jobs
}

// refCheckEstimate compares an estimate transform's output with the model:
// with target estimate, field 9 = the value and est0= the log's field 9 (an
// existing est0= kept); with --as-prediction, field 9 and est0= untouched and
// pred= the value. It returns each job's value (-1 when untouched).
func refCheckEstimate(t *testing.T, in, out []swf.Job, pred bool, want func(i int) refEstWant) []int64 {
	t.Helper()
	values := make([]int64, len(in))
	bad := 0
	refCompare(t, in, out, func(i int) refExpect {
		w := want(i)
		e := refExpectFrom(&in[i])
		values[i] = -1
		if !w.touched {
			return e
		}
		if w.keepUser {
			if pred {
				e.removed[augment.KeyPrediction] = true
				_, had := in[i].ExtraValue(augment.KeyPrediction)
				e.changed = had
			}
			return e
		}
		e.changed = true
		var got int64
		if pred {
			s, _ := out[i].ExtraValue(augment.KeyPrediction)
			got, _ = strconv.ParseInt(s, 10, 64)
		} else {
			got = out[i].RequestedTime
		}
		ok := slices.Contains(w.vals, got) || (w.vals == nil && got >= w.lo && got <= w.hi)
		if !ok {
			bad++
			if bad <= 10 {
				t.Errorf("job line %d (runtime %d): value %d, model %v [%d, %d]\n in: %s\nout: %s",
					in[i].Line, in[i].RunTime, got, w.vals, w.lo, w.hi, in[i].Raw(), out[i].Raw())
			}
		}
		values[i] = got
		v := strconv.FormatInt(got, 10)
		if pred {
			e.set[augment.KeyPrediction] = v
		} else {
			e.fields[swf.FieldRequestedTime-1] = float64(got)
			est0 := strconv.FormatInt(in[i].RequestedTime, 10)
			if old, had := in[i].ExtraValue(augment.KeyEstimate0); had {
				est0 = old
			}
			e.set[augment.KeyEstimate0] = est0
		}
		return e
	})
	return values
}

// refCheckCounts holds EstimateReport's counts to the values written: a value
// equal to the runtime is exact, above over, below under; Floored counts
// runtime-0 jobs written as 1 s; Unknown the jobs of unknown runtime.
func refCheckCounts(t *testing.T, in []swf.Job, values []int64, rep *augment.EstimateReport) {
	t.Helper()
	var perfect, over, under, floored, unknown int
	for i := range in {
		rt := in[i].RunTime
		if rt < 0 {
			unknown++
			continue
		}
		v := values[i]
		if v < 0 {
			continue
		}
		switch {
		case v == rt:
			perfect++
		case v > rt:
			over++
		default:
			under++
		}
		if rt == 0 && v == 1 {
			floored++
		}
	}
	if rep.Perfect != perfect || rep.Over != over || rep.Under != under || rep.Unknown != unknown || rep.Floored != floored {
		t.Errorf("report exact/over/under/unknown/floored %d/%d/%d/%d/%d, model %d/%d/%d/%d/%d",
			rep.Perfect, rep.Over, rep.Under, rep.Unknown, rep.Floored, perfect, over, under, unknown, floored)
	}
}

func refEstimateInputs(t *testing.T) map[string][]byte {
	ins := map[string][]byte{
		"KTH-SP2":      refSharedTrace(t, "KTH-SP2-1996-2.1-cln.swf.gz", 0),
		"LANL-CM5":     refSharedTrace(t, "LANL-CM5-1994-4.1-cln.swf.gz", 10000),
		"RICC[:10000]": refSharedTrace(t, "RICC-2010-2.swf.gz", 10000),
	}
	for s := uint64(11); s <= 14; s++ {
		ins["random"+strconv.FormatUint(s, 10)] = refGenTrace(s, 400, s%2 == 0)
	}
	return ins
}

// TestReferenceEstimateModels: exact = runtime, scale:R = round(R x runtime),
// uniform:A,B = round(runtime x U(A,B)) inside [round(A rt), round(B rt)]
// exactly, all at least 1 s; as field 9 (est0= the log's) or as pred=.
// For uniform the mean of estimate/runtime over jobs with runtime >= 1000 s
// must be (A+B)/2 within 5 standard errors ((B-A)/sqrt(12 n)) plus the
// rounding (at most 0.5/1000).
func TestReferenceEstimateModels(t *testing.T) {
	for name, data := range refEstimateInputs(t) {
		in := refRead(t, data)
		for _, spec := range []string{"exact", "scale:1.5", "scale:0.3", "uniform:1,3", "uniform:0.2,0.9"} {
			for _, pred := range []bool{false, true} {
				if pred && spec != "uniform:1,3" && !strings.HasPrefix(name, "random") {
					continue // time: one prediction model on the real traces
				}
				label := name + " " + spec
				if pred {
					label += " pred"
				}
				t.Run(label, func(t *testing.T) {
					m, err := augment.ParseModel(spec)
					if err != nil {
						t.Fatal(err)
					}
					if pred {
						m.Target = augment.TargetPrediction
					}
					lib := refRead(t, data)
					rep := augment.ApplyModel(lib.jobs, m, augment.NewRand(1, augment.StreamEstimate))
					out := refWriteRead(t, lib.hdr, lib.jobs)
					values := refCheckEstimate(t, in.jobs, out, pred, func(i int) refEstWant {
						rt := in.jobs[i].RunTime
						if rt < 0 {
							return refEstWant{}
						}
						r := float64(rt)
						switch m.Kind {
						case "exact":
							return refEstWant{touched: true, vals: []int64{refEstimateValue(r)}}
						case "scale":
							return refEstWant{touched: true, vals: []int64{refEstimateValue(m.R * r)}}
						}
						return refEstWant{touched: true, lo: refEstimateValue(m.A * r), hi: refEstimateValue(m.B * r)}
					})
					refCheckCounts(t, in.jobs, values, rep)
					if m.Kind != "uniform" {
						return
					}
					var sum float64
					n := 0
					for i := range in.jobs {
						if rt := in.jobs[i].RunTime; rt >= 1000 {
							sum += float64(values[i]) / float64(rt)
							n++
						}
					}
					if n < 200 {
						return
					}
					mean := sum / float64(n)
					tol := 5*(m.B-m.A)/math.Sqrt(12*float64(n)) + 0.5/1000
					if math.Abs(mean-(m.A+m.B)/2) > tol {
						t.Errorf("mean estimate/runtime %v over %d jobs, model %v +- %v", mean, n, (m.A+m.B)/2, tol)
					}
				})
			}
		}
	}
}

// TestReferenceEstimateCommand runs the same models through the command on a
// random trace, byte for byte.
func TestReferenceEstimateCommand(t *testing.T) {
	data := refGenTrace(21, 500, true)
	in := refRead(t, data)
	for _, args := range [][]string{{"--estimate", "scale:2"}, {"--estimate", "exact", "--as-prediction"}} {
		out := refRead(t, refRun(t, data, args...))
		pred := len(args) == 3
		refCheckEstimate(t, in.jobs, out.jobs, pred, func(i int) refEstWant {
			rt := in.jobs[i].RunTime
			if rt < 0 {
				return refEstWant{}
			}
			f := 2.0
			if pred {
				f = 1
			}
			return refEstWant{touched: true, vals: []int64{refEstimateValue(f * float64(rt))}}
		})
	}
}
