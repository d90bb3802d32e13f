#!/bin/bash
# Regenerates cmd/swfsim/default.pgo, the CPU profile that `go build` uses for
# profile-guided optimisation of swfsim (Go's -pgo=auto): the RICC-2010-2
# benchmarks of issue 17's targets (pkg/policy), merged. About a minute; needs
# ../shared/data/RICC-2010-2.swf.gz. Run it again after large changes to the
# simulator's hot paths (a stale profile only optimises less; outputs never
# change, since PGO only changes inlining and code layout).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for b in 'RICCTargets/conservative$' 'RICCTargets/easy$' \
	'RICCGrowth/conservative-nokill/100000$' 'RICCGrowth/selective-d-nokill/100000$' \
	'RICCGrowth/easy-fairstart/100000$' 'RICCGrowth/timed-fcfs-fairstart/100000$'; do
	i=$((i + 1))
	GOMAXPROCS=1 $GO test -count=1 -run '^$' -bench "$b" -benchtime 1x \
		-cpuprofile "$tmp/$i.prof" -o "$tmp/policy.test" ./pkg/policy | grep '^Benchmark'
done
$GO tool pprof -proto "$tmp"/*.prof > cmd/swfsim/default.pgo
echo "pgo: wrote cmd/swfsim/default.pgo ($(wc -c < cmd/swfsim/default.pgo) bytes)"
