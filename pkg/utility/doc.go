// Package utility is the piecewise-linear job utility function of Lee's thesis
// (ch. 2.5): a job's value as a function of the time from its submission to its
// completion.
//
// Conventions:
//
//   - A Func is a sequence of Points (Time, Value). Time is seconds since the job's
//     submission, Value is in whatever unit the workload uses (swfaugment writes
//     value per processor-minute times processor-minutes).
//   - Well formed (see Func.Validate): at least two points, the first at time 0,
//     times strictly increasing, values finite, non-negative, non-increasing and
//     at most MaxValue (1e300).
//   - Between points the value is interpolated linearly; after the last point it
//     is 0; before 0 (a completion before submission) it is the first value.
//     A jump is approximated by two points a small epsilon apart.
//   - In SWF the function is the extension token "u=t0:v0,t1:v1,...". Format writes
//     each number in the shortest form that parses back to the same float64, so
//     Parse(Format(f)) == f exactly.
//   - Value, Parse into a Func with capacity, and AppendFormat do not allocate:
//     a scheduler can evaluate and re-parse functions millions of times. A Func owns
//     its Points slice; Parse reuses it.
package utility
