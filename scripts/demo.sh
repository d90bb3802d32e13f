#!/usr/bin/env bash
# The main job on a bundled trace: clean, augment, simulate, summarize. Each step
# says what it produced in a few lines; the long outputs go to files in OUTDIR.
# Usage: scripts/demo.sh BINDIR TRACE OUTDIR
set -euo pipefail
BIN=${1:-bin}
TRACE=${2:-testdata/KTH-SP2-1996-2.1-cln.swf.gz}
OUT=${3:-out}
mkdir -p "$OUT"
step() { printf '\n== %s\n' "$*"; }
# jobs FILE: job records in an SWF file (header lines start with ';').
jobs() { grep -vc '^;' "$1" || true; }
# metric CSV LABEL METRIC STAT: one number of a swfstat CSV summary.
metric() { awk -F, -v l="$2" -v m="$3" -v s="$4" '$1==l && $3=="all" && $7==m && $8==s {print $9}' "$1"; }

step "1. check the trace against the archive's conventions (report: $OUT/check.txt)"
"$BIN/swfclean" --check "$TRACE" > "$OUT/check.txt"
grep -E '^(records|machine size|anomalies):' "$OUT/check.txt" | sed 's/^/   /'

step "2. clean it with the default rules (accounting: $OUT/clean.log)"
"$BIN/swfclean" "$TRACE" -o "$OUT/clean.swf" 2> "$OUT/clean.log"
sed -n '1s/^swfclean: [^:]*: /   /p' "$OUT/clean.log"
awk 'NR > 1 && ($2 > 0 || $4 > 0) {printf "   rule %s: %s dropped, %s changed\n", $1, $2, $4}' "$OUT/clean.log"

step "3. augment: utility functions (Lee) and checkpoint intervals, seed 7"
"$BIN/swfaugment" --utility --checkpoint --seed 7 "$OUT/clean.swf" -o "$OUT/aug.swf"
echo "   $OUT/aug.swf: $(jobs "$OUT/aug.swf") jobs, $(grep -v '^;' "$OUT/aug.swf" | grep -c ' u=') with a utility function, $(grep -v '^;' "$OUT/aug.swf" | grep -c ' ckpt=[1-9]') checkpointing"

step "4. simulate FCFS, EASY, conservative and priority-FIFO (jobs run to their end: --no-kill)"
for p in fcfs easy conservative priofifo; do
  "$BIN/swfsim" --policy "$p" --no-kill "$OUT/aug.swf" -o "$OUT/$p.swf" 2> "$OUT/$p.log"
  echo "   $p: $OUT/$p.swf, $(jobs "$OUT/$p.swf") jobs scheduled$(grep -o 'skipped [0-9]* jobs: [a-z ]*' "$OUT/$p.log" | sed 's/^/, /' | head -1)"
  [ -s "$OUT/$p.log" ] || rm -f "$OUT/$p.log"
done

step "5. the GA utility scheduler and its checkpoint-aware variant on the first 2,000 jobs (20 x 100 GA)"
"$BIN/swfclean" --rules none --keep 'job<=2014' "$OUT/aug.swf" -o "$OUT/window.swf" 2>/dev/null
for p in easy ga ga-ckpt; do
  seed=(); [ "$p" = easy ] || seed=(--seed 7)
  "$BIN/swfsim" --policy "$p" --no-kill "${seed[@]}" "$OUT/window.swf" -o "$OUT/window-$p.swf"
done
"$BIN/swfstat" --format csv --label easy,ga,ga-ckpt "$OUT/window-easy.swf" "$OUT/window-ga.swf" "$OUT/window-ga-ckpt.swf" > "$OUT/window-summary.csv"
for p in easy ga ga-ckpt; do
  printf '   %-8s aggregate utility %.0f, mean wait %.0f s (%s)\n' "$p" "$(metric "$OUT/window-summary.csv" "$p" utility sum)" \
    "$(metric "$OUT/window-summary.csv" "$p" wait_s mean)" "$OUT/window-$p.swf"
done

step "6. summarize side by side"
labels=fcfs,easy,conservative,priofifo
files=("$OUT/fcfs.swf" "$OUT/easy.swf" "$OUT/conservative.swf" "$OUT/priofifo.swf")
"$BIN/swfstat" --baseline conservative --by category --label $labels "${files[@]}" -o "$OUT/summary.txt" \
  --html "$OUT/report.html"
"$BIN/swfstat" --format csv --baseline conservative --by category --label $labels "${files[@]}" -o "$OUT/summary.csv"
"$BIN/swfstat" --plot "$OUT/gantt-busiest-day.svg" --plot-kind gantt --label easy "$OUT/easy.swf" > /dev/null
"$BIN/swfstat" --plot "$OUT/wait-cdf.svg" --plot-kind wait-cdf --label fcfs,easy,conservative "$OUT/fcfs.swf" "$OUT/easy.swf" "$OUT/conservative.swf" > /dev/null
"$BIN/swfstat" --plot "$OUT/category.svg" --plot-kind category --label easy,conservative "$OUT/easy.swf" "$OUT/conservative.swf" > /dev/null
printf '   %-13s %14s %10s %16s\n' policy "mean wait (s)" "mean bsld" "utilization (%)"
for p in fcfs easy conservative priofifo; do
  printf '   %-13s %14.0f %10.1f %16.1f\n' "$p" "$(metric "$OUT/summary.csv" $p wait_s mean)" \
    "$(metric "$OUT/summary.csv" $p bsld mean)" "$(metric "$OUT/summary.csv" $p utilization_pct value)"
done
echo "   (priofifo equals easy here: KTH-SP2 has no queue field, so every job is in one priority class)"
"$BIN/swfstat" --check-capacity "$OUT/easy.swf" | sed 's/^/   capacity: /'
echo "   all numbers, by category and against conservative: $OUT/summary.txt ($(wc -l < "$OUT/summary.txt") lines), $OUT/summary.csv"
echo "   one page with tables, figures and each policy's schedule of conservative's busiest day: $OUT/report.html"
echo "   figures: $OUT/wait-cdf.svg $OUT/category.svg $OUT/gantt-busiest-day.svg (EASY's busiest day)"
