#!/usr/bin/env bash
# make test-integration: install the real components (Debian packages), start a
# single-node Slurm, and run every TestIntegration* test with SWFKIT_INTEGRATION=1,
# under which a missing component fails instead of skipping.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
GO=${GO:-go}

bash scripts/components.sh install || { echo "integration: installing the components failed" >&2; exit 1; }
started=0
if [ -f scripts/slurm.sh ]; then
  bash scripts/slurm.sh start || { echo "integration: Slurm did not start" >&2; bash scripts/slurm.sh stop; exit 1; }
  started=1
fi
# Only the packages that have TestIntegration* tests, verbosely, so the run can
# count them and close on one plain line.
pkgs=$(grep -rl --include='*_test.go' '^func TestIntegration' . | xargs -n1 dirname | sort -u)
log=$(mktemp)
# One package at a time (-p 1): two packages' Slurm tests must not share the cluster,
# whose timing the job mix depends on.
SWFKIT_INTEGRATION=1 $GO test -p 1 -count=1 -timeout 40m -v -run 'Integration' $pkgs 2>&1 | tee "$log" |
  grep -E '^(=== RUN|--- (PASS|FAIL|SKIP)|ok |FAIL|panic)' | grep -v '^=== RUN'
rc=${PIPESTATUS[0]}
[ $started = 1 ] && bash scripts/slurm.sh stop
passed=$(grep -cE '^--- PASS: TestIntegration' "$log")
failed=$(grep -cE '^--- FAIL: TestIntegration' "$log")
skipped=$(grep -cE '^--- SKIP: TestIntegration' "$log")
# A failing test's own output (its t.Log/t.Error lines), so CI shows why.
for t in $(grep -oE '^--- FAIL: TestIntegration[A-Za-z0-9_]*' "$log" | awk '{print $3}'); do
  echo "integration: output of $t:"
  awk -v t="$t" '$0 ~ "^=== RUN +"t"$" {p=1} p {print} $0 ~ "^--- FAIL: "t" " {p=0}' "$log" | tail -150
done
[ "$rc" != 0 ] && [ "$failed" = 0 ] && { tail -40 "$log"; failed=1; }
rm -f "$log"
echo "integration: $passed passed, $failed failed, $skipped skipped"
exit $rc
