#!/bin/bash
# Runs every round of a split on this machine: each round's jobs PROCS at a time (one thread
# each, default one per core), then `moo tree join`, which writes the next round's jobs or the
# tree. Stopped at any point, it resumes where it was: a job with its result is not run again,
# and a job killed midway leaves nothing and runs again. MOO=path picks the binary (default:
# `moo` on the PATH); CACHE=SIZE gives each job's search that much cache (`--cache-memory`,
# e.g. CACHE=8GiB): jobs of more than minutes can fill the default 640 MiB and then search
# again what they forgot, so keep PROCS times SIZE within the machine's memory.
# Usage: split-local.sh JOBS_DIR TREE [PROCS] (after `moo tree split --out JOBS_DIR`).
set -euo pipefail
dir=${1:?usage: split-local.sh JOBS_DIR TREE [PROCS]}
tree=${2:?usage: split-local.sh JOBS_DIR TREE [PROCS]}
procs=${3:-$(nproc)}
moo=${MOO:-moo}
cache=(${CACHE:+--cache-memory "$CACHE"})
while :; do
  range=$("$moo" tree status "$dir")
  if [ -n "$range" ]; then
    tr , '\n' <<<"$range" | while IFS=- read -r a b; do seq "$a" "${b:-$a}"; done |
      xargs -P "$procs" -I{} "$moo" tree job "$dir" --index {} --threads 1 "${cache[@]}"
  fi
  "$moo" tree join "$dir" -o "$tree"
  [ -n "$("$moo" tree status "$dir")" ] || break
done
