#!/usr/bin/env bash
# The real components some tests run: GNU parallel, headless Chromium (and poppler's
# pdftotext, which reads back the PDF it prints), Python 3, a single-node Slurm with
# accounting, and the zsh and fish shells (their completion scripts are run in them).
# Usage:
#   scripts/components.sh check     say loudly which are missing (make test runs this)
#   scripts/components.sh install   install the missing ones from Debian's packages (root)
set -uo pipefail

# program -> Debian packages that provide it (and what it needs beside it)
declare -A PKG=(
  [parallel]="parallel"
  [chromium]="chromium"
  [pdftotext]="poppler-utils"
  [python3]="python3 python3-pandas python3-zstandard"
  [sbatch]="slurm-wlm slurmdbd munge mariadb-server slurm-client"
  [zsh]="zsh"
  [fish]="fish"
)
ORDER=(parallel chromium pdftotext python3 sbatch zsh fish)

missing=()
for prog in "${ORDER[@]}"; do
  command -v "$prog" >/dev/null 2>&1 || { missing+=("$prog"); continue; }
  # The tables' tests load them with pandas (.csv.zst through zstandard): a python3
  # without them counts as missing.
  if [ "$prog" = python3 ] && ! python3 -c 'import pandas, zstandard' 2>/dev/null &&
    ! /usr/bin/python3 -c 'import pandas, zstandard' 2>/dev/null; then
    missing+=("$prog")
  fi
done

case "${1:-check}" in
check)
  slurm_down=0
  if command -v sbatch >/dev/null 2>&1 && ! timeout 10 scontrol ping >/dev/null 2>&1; then
    slurm_down=1
  fi
  if [ ${#missing[@]} -eq 0 ] && [ $slurm_down = 0 ]; then
    echo "components: parallel, chromium, pdftotext, python3, Slurm, zsh and fish are installed and Slurm is up; their tests run."
    exit 0
  fi
  echo "=================================================================="
  if [ $slurm_down = 1 ]; then
    echo "SKIPPING the tests that need a running Slurm: it is installed but no controller answers"
    echo "(start it with 'bash scripts/slurm.sh start', or run 'make test-integration', which does)."
  fi
  if [ ${#missing[@]} -eq 0 ]; then
    echo "=================================================================="
    exit 0
  fi
  for prog in "${missing[@]}"; do
    echo "SKIPPING the tests that need '$prog': not installed (Debian: ${PKG[$prog]})."
  done
  echo "Install them with 'make test-integration' (root, apt-get), which runs those tests."
  echo "=================================================================="
  ;;
install)
  if [ ${#missing[@]} -eq 0 ]; then
    echo "components: all installed"
    exit 0
  fi
  pkgs=()
  for prog in "${missing[@]}"; do pkgs+=(${PKG[$prog]}); done
  echo "components: installing ${pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -qq && apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
  ;;
*)
  echo "usage: $0 check|install" >&2
  exit 2
  ;;
esac
