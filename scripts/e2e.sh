#!/usr/bin/env bash
# End-to-end command cases: run the built binaries as processes and check exit
# codes, stdout/stderr, pipes and compression. Usage: scripts/e2e.sh BINDIR
set -uo pipefail
BIN=${1:-bin}
[ -d "$BIN" ] && BIN=$(cd "$BIN" && pwd) # absolute: some cases run in another directory
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA="$ROOT/../shared/data"
TRACE="$ROOT/testdata/KTH-SP2-1996-2.1-cln.swf.gz"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect CODE DESCRIPTION -- command...: run, compare the exit status.
expect() {
  local want=$1 desc=$2; shift 3
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" = "$want" ]; then ok; else bad "$desc: exit $got, want $want ($(head -c 300 "$TMP/err"))"; fi
}
# stderr_has TEXT DESCRIPTION: the last command's stderr contains TEXT.
stderr_has() { if grep -qF -- "$1" "$TMP/err"; then ok; else bad "$2: stderr lacks '$1': $(head -c 300 "$TMP/err")"; fi; }

for tool in swfclean swfaugment swfsim swfstat; do
  exe="$BIN/$tool"
  [ -x "$exe" ] || { bad "$tool was not built"; continue; }
  expect 0 "$tool --help" -- "$exe" --help
  expect 0 "$tool --version" -- "$exe" --version
  expect 2 "$tool unknown flag" -- "$exe" --no-such-flag
  stderr_has "no-such-flag" "$tool unknown flag"
  expect 1 "$tool missing file" -- "$exe" "$TMP/does-not-exist.swf"
  stderr_has "does-not-exist.swf" "$tool missing file"
  if [ -d "$DATA/not-swf" ]; then
    expect 1 "$tool rejects a non-SWF file" -- "$exe" "$DATA/not-swf/MetaCentrum-wagap-2013-alea-format.gz"
    stderr_has "MetaCentrum-wagap-2013-alea-format.gz:1: field 19" "$tool non-SWF error names file, line and field"
  fi
done

# swfclean: --rules none is the identity, on a file and on stdin, plain or compressed.
if [ -x "$BIN/swfclean" ]; then
  zcat "$TRACE" >"$TMP/kth.swf"
  expect 0 "swfclean --rules none" -- "$BIN/swfclean" --rules none "$TMP/kth.swf" -o "$TMP/same.swf"
  cmp -s "$TMP/kth.swf" "$TMP/same.swf" && ok || bad "swfclean --rules none is not byte-identical"
  "$BIN/swfclean" --rules none - <"$TRACE" >"$TMP/same2.swf" 2>/dev/null
  cmp -s "$TMP/kth.swf" "$TMP/same2.swf" && ok || bad "swfclean --rules none on gzip stdin is not byte-identical"
  expect 0 "swfclean -o .zst" -- "$BIN/swfclean" --rules none "$TRACE" -o "$TMP/k.swf.zst"
  "$BIN/swfclean" --rules none "$TMP/k.swf.zst" -o "$TMP/k2.swf.gz" 2>/dev/null && zcat "$TMP/k2.swf.gz" | cmp -s - "$TMP/kth.swf" && ok || bad "zstd/gzip output round trip"
  # A closed pipe ends quietly with status 0.
  "$BIN/swfclean" --rules none "$TRACE" 2>"$TMP/err" | head -1 >/dev/null
  st=${PIPESTATUS[0]}
  [ "$st" = 0 ] && ok || bad "swfclean | head: exit $st, want 0"
  [ -s "$TMP/err" ] && bad "swfclean | head printed on stderr: $(head -c 200 "$TMP/err")" || ok
  # -o /dev/stdout on a closed standard output is an error, not a run into
  # the /dev/null the runtime reopened it on; a link to /dev/stdout writes
  # into the shell's redirection, as /dev/stdout does (appended, not renamed over).
  "$BIN/swfclean" -q --rules none "$TMP/kth.swf" -o /dev/stdout >&- 2>"$TMP/err"
  [ $? = 1 ] && ok || bad "swfclean -o /dev/stdout >&-: not exit 1"
  stderr_has "descriptor 1 is closed" "swfclean -o /dev/stdout >&- says why"
  ln -sf /dev/stdout "$TMP/to-stdout.swf"
  echo PREV >"$TMP/appended.swf"
  "$BIN/swfclean" -q --rules none "$TMP/kth.swf" -o "$TMP/to-stdout.swf" >>"$TMP/appended.swf" 2>/dev/null
  { echo PREV; cat "$TMP/kth.swf"; } | cmp -s - "$TMP/appended.swf" && ok || bad "swfclean -o LINK-TO-/dev/stdout did not write into the redirection"
  expect 0 "swfclean --check" -- "$BIN/swfclean" --check "$TRACE"
  # Scheduler logs: the real Slurm dump and MetaCentrum's Alea log convert, and
  # the result reads back as SWF.
  expect 0 "swfclean --from sacct" -- "$BIN/swfclean" --from sacct --timezone Europe/Prague "$ROOT/testdata/slurm/sacct.txt" -o "$TMP/slurm.swf"
  expect 0 "swfclean --check on the converted Slurm log" -- "$BIN/swfclean" --check "$TMP/slurm.swf"
  expect 1 "swfclean --check --submission without Computer" -- "$BIN/swfclean" --check --submission "$TMP/slurm.swf"
  stderr_has "not ready for submission" "swfclean --check --submission says why it failed"
  if [ -d "$DATA/not-swf" ]; then
    expect 0 "swfclean --check --from alea" -- "$BIN/swfclean" --check --from alea "$DATA/not-swf/MetaCentrum-wagap-2013-alea-format.gz"
    stderr_has "17900 lines read = 0 header + 17900 job lines" "swfclean --from alea accounts for every line"
  fi
fi

if [ -x "$BIN/swfsim" ] && [ -x "$BIN/swfstat" ]; then
  "$BIN/swfsim" --policy easy "$TRACE" 2>/dev/null | "$BIN/swfstat" >"$TMP/stat" 2>"$TMP/err"
  st=("${PIPESTATUS[@]}")
  [ "${st[0]}" = 0 ] && [ "${st[1]}" = 0 ] && ok || bad "swfsim | swfstat: exit ${st[*]}"
  "$BIN/swfsim" --policy easy "$TRACE" 2>/dev/null | head -1 >/dev/null
  st=${PIPESTATUS[0]}
  [ "$st" = 0 ] && ok || bad "swfsim | head: exit $st, want 0"
  "$BIN/swfsim" --policy easy "$TRACE" -o "$TMP/a.swf" 2>/dev/null
  "$BIN/swfsim" --policy easy "$TRACE" -o "$TMP/b.swf" 2>/dev/null
  cmp -s "$TMP/a.swf" "$TMP/b.swf" && ok || bad "swfsim output is not deterministic"
  expect 0 "swfstat --check-capacity on a simulated schedule" -- "$BIN/swfstat" --check-capacity "$TMP/a.swf"
  # - and /dev/stdin on a regular standard input both read it whole (README),
  # labelled apart.
  "$BIN/swfstat" --format csv - /dev/stdin <"$TMP/a.swf" >"$TMP/out" 2>"$TMP/err"
  st=$?
  [ "$st" = 0 ] && grep -q '^-,<stdin>,.*,input,jobs_read,' "$TMP/out" && grep -q '^stdin,/dev/stdin,.*,input,jobs_read,' "$TMP/out" && ok || bad "swfstat - /dev/stdin < file: exit $st, $(head -c 300 "$TMP/err")"
fi

if [ -x "$BIN/swfaugment" ]; then
  "$BIN/swfaugment" --utility --seed 3 "$TRACE" >"$TMP/u1.swf" 2>/dev/null
  "$BIN/swfaugment" --utility --seed 3 "$TRACE" >"$TMP/u2.swf" 2>/dev/null
  cmp -s "$TMP/u1.swf" "$TMP/u2.swf" && ok || bad "swfaugment is not deterministic for a fixed seed"
  grep -q ' u=0:' "$TMP/u1.swf" && ok || bad "swfaugment --utility wrote no u= tokens"
fi

# Archive submitters: an unclean log fails --fail-on-anomaly.
if [ -x "$BIN/swfclean" ] && [ -f "$DATA/HPC2N-2002-2-first3170.swf.gz" ]; then
  expect 1 "swfclean --check --fail-on-anomaly on the unclean HPC2N file" -- "$BIN/swfclean" --check --fail-on-anomaly "$DATA/HPC2N-2002-2-first3170.swf.gz"
fi

# A run that fails half-way leaves no output file behind (nor a temporary one).
if [ -x "$BIN/swfsim" ] && [ -x "$BIN/swfclean" ]; then
  { zcat "$TRACE"; echo "1 2 3"; } >"$TMP/late.swf"
  for tool in swfclean swfsim; do
    args=(--rules none); [ "$tool" = swfsim ] && args=(--policy easy)
    expect 1 "$tool fails on a malformed last line" -- "$BIN/$tool" "${args[@]}" "$TMP/late.swf" -o "$TMP/late-out.swf.gz"
    stderr_has "late.swf:" "$tool names the file of the malformed line"
    [ -e "$TMP/late-out.swf.gz" ] && bad "$tool left an output file after failing" || ok
  done
  [ -z "$(ls -A "$TMP" | grep '\.tmp-')" ] && ok || bad "temporary output files left behind"
  # ... and gives the next command of a pipe nothing, not the records before
  # the bad line (a valid, shorter trace): every tool holds its output until
  # the input was read, swfclean --rules none's plain copy included.
  for tool in swfclean swfaugment swfsim; do
    args=(--rules none); [ "$tool" = swfsim ] && args=(--policy easy); [ "$tool" = swfaugment ] && args=(--utility)
    "$BIN/$tool" "${args[@]}" "$TMP/late.swf" 2>/dev/null | "$BIN/swfstat" >/dev/null 2>"$TMP/err"
    st=${PIPESTATUS[1]}
    [ "$st" = 1 ] && ok || bad "$tool fails late | swfstat: swfstat exit $st, want 1"
    stderr_has "empty input" "$tool fails late | swfstat reports an empty input"
  done
  # A flag that the chosen policy does not read is a usage error, not ignored.
  expect 2 "swfsim --trial with easy" -- "$BIN/swfsim" --policy easy --trial 30 "$TRACE"
  stderr_has "--trial" "swfsim names the flag that does not apply"
fi

# swfstat --replay prints commands that remake a file's records from its
# Provenance lines: a three-tool pipe, a file name with a space, quoted values
# and non-default flags of every kind; run, they give the same records.
if [ -x "$BIN/swfstat" ]; then
  "$BIN/swfclean" -q --filter 'job>2000' --set 'Note=a b' "$TRACE" |
    "$BIN/swfaugment" --estimate uniform:1,3 --seed 07 --target-load 0.9 |
    "$BIN/swfsim" --policy selective --threshold 3 --no-kill --no-progress -o "$TMP/made here.swf"
  expect 0 "swfstat --replay" -- "$BIN/swfstat" --replay "$TMP/made here.swf"
  cp "$TMP/out" "$TMP/replay.sh"
  grep -q -- "--threshold=3" "$TMP/replay.sh" && ok || bad "swfstat --replay left out --threshold: $(cat "$TMP/replay.sh")"
  (cd "$TMP" && PATH="$BIN:$PATH" bash replay.sh 2>/dev/null) >"$TMP/replayed.swf"
  if cmp -s <(grep -v '^; Provenance' "$TMP/made here.swf") <(grep -v '^; Provenance' "$TMP/replayed.swf"); then ok; else bad "swfstat --replay: its commands give other records"; fi
  # A study's point (examples/study/point.sh) reads the trace by its path,
  # so its replay gives back the whole file, headers too: also at seed 1, the
  # default, which the replay leaves out.
  "$BIN/swfaugment" --estimate uniform:1,3 --target-load 0.9 --seed 1 "$TRACE" 2>/dev/null |
    "$BIN/swfsim" --policy easy --seed 1 --no-progress -o "$TMP/point.swf.gz" 2>/dev/null
  (cd "$TMP" && "$BIN/swfstat" --replay point.swf.gz | PATH="$BIN:$PATH" bash 2>/dev/null) >"$TMP/point-replayed.swf"
  if cmp -s <(gzip -dc "$TMP/point.swf.gz") "$TMP/point-replayed.swf"; then ok; else bad "swfstat --replay of a study point: not the same file"; fi
  # The Provenance line records the SHA-256 of the decompressed input, from a
  # file or from standard input; --replay checks the file at the recorded
  # path against it: quiet when it is the same, a comment and a warning
  # naming both hashes when it changed.
  want=$(gzip -dc "$TRACE" | sha256sum | cut -d' ' -f1)
  grep -q "^; Provenance: swfsim .* input=- input-sha256=[0-9a-f]\{64\}$" "$TMP/point-replayed.swf" && ok || bad "swfsim from a pipe records no input-sha256"
  "$BIN/swfclean" -q - <"$TRACE" | grep -q "^; Provenance: swfclean .* input=- input-sha256=$want$" && ok || bad "swfclean on gzip stdin: input-sha256 is not sha256 of the decompressed trace"
  cp "$TRACE" "$TMP/trace.swf.gz"
  (cd "$TMP" && "$BIN/swfsim" --policy fcfs --no-progress -o checked.swf trace.swf.gz 2>/dev/null)
  grep -q "^; Provenance: swfsim .* input=trace.swf.gz input-sha256=$want$" "$TMP/checked.swf" && ok || bad "swfsim on a gzip file: input-sha256 is not sha256 of the decompressed trace"
  (cd "$TMP" && "$BIN/swfstat" --replay checked.swf >replay-same.sh 2>replay-same.err)
  if [ ! -s "$TMP/replay-same.err" ] && ! grep -q "sha256" "$TMP/replay-same.sh"; then ok; else bad "swfstat --replay of an unchanged input is not quiet: $(cat "$TMP/replay-same.err" "$TMP/replay-same.sh")"; fi
  gzip -dc "$TRACE" | head -n 200 | gzip >"$TMP/trace.swf.gz"
  (cd "$TMP" && "$BIN/swfstat" --replay checked.swf >replay-changed.sh 2>replay-changed.err)
  grep -q "^# the file at trace.swf.gz is not the one the run read: .* sha256 [0-9a-f]\{64\}, the run read $want$" "$TMP/replay-changed.sh" && ok || bad "swfstat --replay of a changed input: no comment: $(cat "$TMP/replay-changed.sh")"
  grep -q "warning: checked.swf: the file at trace.swf.gz is not the one the run read" "$TMP/replay-changed.err" && ok || bad "swfstat --replay of a changed input: no warning: $(cat "$TMP/replay-changed.err")"
  # A run started in a study's folder records its input relative to there;
  # a replay from elsewhere finds it from the replayed file's folder up, by
  # its hash, and its commands read it from here.
  mkdir -p "$TMP/study/runs" "$TMP/elsewhere"
  cp "$TRACE" "$TMP/study/kth.swf.gz"
  (cd "$TMP/study" && "$BIN/swfsim" --policy fcfs --no-progress -o runs/fcfs.swf kth.swf.gz 2>/dev/null)
  (cd "$TMP/elsewhere" && "$BIN/swfstat" --replay ../study/runs/fcfs.swf >replay.sh 2>replay.err &&
    PATH="$BIN:$PATH" bash replay.sh 2>/dev/null >replayed.swf)
  grep -q "^# kth.swf.gz, the run's input, is not in the current directory; ../study/kth.swf.gz .* the command reads it$" "$TMP/elsewhere/replay.sh" &&
    grep -q "^swfsim --policy=fcfs ../study/kth.swf.gz$" "$TMP/elsewhere/replay.sh" && ok ||
    bad "swfstat --replay from another folder: the input is not found: $(cat "$TMP/elsewhere/replay.sh" "$TMP/elsewhere/replay.err")"
  if cmp -s <(grep -v '^; Provenance' "$TMP/study/runs/fcfs.swf") <(grep -v '^; Provenance' "$TMP/elsewhere/replayed.swf"); then ok; else bad "swfstat --replay from another folder: its commands give other records"; fi
  # The policy program of an exec run is found the same way (by its bytes),
  # and the commands' --exec names it from here.
  if command -v python3 >/dev/null; then
    cp "$ROOT/examples/policies/easy.py" "$TMP/study/pol.py"
    (cd "$TMP/study" && "$BIN/swfsim" --policy exec --exec 'python3 pol.py' --no-progress -o runs/exec.swf kth.swf.gz 2>/dev/null)
    (cd "$TMP/elsewhere" && "$BIN/swfstat" --replay ../study/runs/exec.swf >replay-exec.sh 2>replay-exec.err &&
      PATH="$BIN:$PATH" bash replay-exec.sh 2>/dev/null >replayed-exec.swf)
    grep -q "^swfsim --policy=exec '--exec=python3 ../study/pol.py' ../study/kth.swf.gz$" "$TMP/elsewhere/replay-exec.sh" && ok ||
      bad "swfstat --replay from another folder: the exec policy's program is not found: $(cat "$TMP/elsewhere/replay-exec.sh" "$TMP/elsewhere/replay-exec.err")"
    # The records, not the header: its Note names the program as the command did.
    if cmp -s <(grep -v '^;' "$TMP/study/runs/exec.swf") <(grep -v '^;' "$TMP/elsewhere/replayed-exec.swf"); then ok; else bad "swfstat --replay of an exec run from another folder: its commands give other records"; fi
  else
    echo "e2e: SKIPPED replay of an exec run (python3 missing)"
  fi
  expect 1 "swfstat --replay of a file without Provenance" -- "$BIN/swfstat" --replay "$TRACE"
  stderr_has "no Provenance line" "swfstat --replay names what is missing"
fi

# make install puts the tools, their man pages and completions, and the
# example external policies where --help says; the installed easy.py,
# driven by the installed swfsim, makes the built-in easy schedule.
if command -v make >/dev/null && command -v python3 >/dev/null; then
  if make -s -C "$ROOT" install PREFIX="$TMP/inst" >"$TMP/install.log" 2>&1; then
    ok
    for f in bin/swfsim bin/swfstat share/man/man1/swfsim.1 share/bash-completion/completions/swfsim \
      share/zsh/site-functions/_swfsim share/fish/vendor_completions.d/swfsim.fish share/swfkit/policies/easy.py; do
      [ -s "$TMP/inst/$f" ] && ok || bad "make install did not install $f"
    done
    "$TMP/inst/bin/swfsim" --policy exec --exec "python3 $TMP/inst/share/swfkit/policies/easy.py" --no-progress "$TRACE" -o "$TMP/inst-exec.swf" 2>/dev/null
    "$TMP/inst/bin/swfsim" --policy easy --no-progress "$TRACE" -o "$TMP/inst-easy.swf" 2>/dev/null
    if cmp -s <(grep -v '^;' "$TMP/inst-exec.swf") <(grep -v '^;' "$TMP/inst-easy.swf"); then ok; else bad "the installed easy.py does not make the easy schedule"; fi
  else
    bad "make install PREFIX=...: $(tail -5 "$TMP/install.log")"
  fi
else
  echo "e2e: SKIPPED make install (make or python3 missing)"
fi

echo "e2e: $pass passed, $fail failed"
[ "$fail" = 0 ]
