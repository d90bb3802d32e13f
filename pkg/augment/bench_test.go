package augment

import "testing"

// go test -run '^$' -bench . -benchmem ./pkg/augment
func BenchmarkGenerateUtilityKTH(b *testing.B) {
	h, jobs := loadTrace(b, "KTH-SP2-1996-2.1-cln.swf.gz")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := GenerateUtility(jobs, h, UtilityConfig{}, NewRand(1, StreamUtility)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(jobs)), "jobs/op")
}

func BenchmarkCheckpointLANL(b *testing.B) {
	_, jobs := loadTrace(b, "LANL-CM5-1994-4.1-cln.swf.gz")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Checkpoint(jobs, CheckpointConfig{}, NewRand(1, StreamCheckpoint)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkQuantitativeErrorsLANL(b *testing.B) {
	_, jobs := loadTrace(b, "LANL-CM5-1994-4.1-cln.swf.gz")
	bounds, err := ComputeBounds(jobs, BoundsConfig{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := QuantitativeErrors(jobs, bounds, QuantConfig{Error: 100, Stdev: 20, Category: CatEqual}, NewRand(1, StreamEstimate)); err != nil {
			b.Fatal(err)
		}
	}
}
