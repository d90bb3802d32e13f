#!/usr/bin/env bash
# The main job on a bundled trace: clean, augment, simulate, summarize.
# Usage: scripts/demo.sh BINDIR TRACE OUTDIR
set -euo pipefail
BIN=${1:-bin}
TRACE=${2:-testdata/KTH-SP2-1996-2.1-cln.swf.gz}
OUT=${3:-out}
mkdir -p "$OUT"
step() { printf '\n== %s\n' "$*"; }

step "1. check the trace against the archive's conventions"
"$BIN/swfclean" --check "$TRACE" | head -40

step "2. clean it (default rules), accounting for every dropped line"
"$BIN/swfclean" "$TRACE" -o "$OUT/clean.swf"

step "3. augment: utility functions (Lee) and checkpoint columns, seeded"
"$BIN/swfaugment" --utility --checkpoint --seed 7 "$OUT/clean.swf" -o "$OUT/aug.swf"

step "4. simulate FCFS, EASY, conservative and priority-FIFO on the augmented trace"
for p in fcfs easy conservative priofifo; do
  "$BIN/swfsim" --policy "$p" --no-kill "$OUT/aug.swf" -o "$OUT/$p.swf"
done

step "5. the GA utility scheduler and its checkpoint-aware variant on the first 2,000 jobs (20 x 100 GA)"
"$BIN/swfclean" --rules none --keep 'job<=2014' "$OUT/aug.swf" -o "$OUT/window.swf" 2>/dev/null
"$BIN/swfsim" --policy easy --no-kill "$OUT/window.swf" -o "$OUT/window-easy.swf"
"$BIN/swfsim" --policy ga --no-kill --seed 7 "$OUT/window.swf" -o "$OUT/window-ga.swf"
"$BIN/swfsim" --policy ga-ckpt --no-kill --seed 7 "$OUT/window.swf" -o "$OUT/window-ga-ckpt.swf"

step "6. summarize side by side"
"$BIN/swfstat" --baseline conservative --label fcfs,easy,conservative,priofifo "$OUT/fcfs.swf" "$OUT/easy.swf" "$OUT/conservative.swf" "$OUT/priofifo.swf"
"$BIN/swfstat" --by category --label easy,conservative "$OUT/easy.swf" "$OUT/conservative.swf"
"$BIN/swfstat" --baseline easy --label easy,ga,ga-ckpt "$OUT/window-easy.swf" "$OUT/window-ga.swf" "$OUT/window-ga-ckpt.swf"
"$BIN/swfstat" --check-capacity "$OUT/easy.swf"
"$BIN/swfstat" --plot "$OUT/wait-cdf.svg" --plot-kind wait-cdf --label fcfs,easy,conservative "$OUT/fcfs.swf" "$OUT/easy.swf" "$OUT/conservative.swf" >/dev/null
"$BIN/swfstat" --plot "$OUT/category.svg" --plot-kind category --label easy,conservative "$OUT/easy.swf" "$OUT/conservative.swf" >/dev/null
echo
echo "outputs in $OUT/: clean.swf aug.swf fcfs.swf easy.swf conservative.swf priofifo.swf window-*.swf wait-cdf.svg category.svg"
