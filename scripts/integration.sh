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
SWFKIT_INTEGRATION=1 $GO test -count=1 -timeout 40m -run 'Integration' ./...
rc=$?
[ $started = 1 ] && bash scripts/slurm.sh stop
exit $rc
