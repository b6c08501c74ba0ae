#!/bin/bash
# Runs every round of a split on Slurm from the login node: each round's jobs as one array job of
# slurm-tree.sh (beside this script), then `moo tree join`, which writes the next round's jobs or
# the tree. Usage: slurm-split.sh JOBS_DIR TREE (after `moo tree split --out JOBS_DIR`).
set -euo pipefail
dir=${1:?usage: slurm-split.sh JOBS_DIR TREE}
tree=${2:?usage: slurm-split.sh JOBS_DIR TREE}
while :; do
  range=$(moo tree status "$dir")
  if [ -n "$range" ]; then
    sbatch --array="$range" --wait "$(dirname "$0")/slurm-tree.sh" "$dir"
  fi
  moo tree join "$dir" -o "$tree"
  [ -n "$(moo tree status "$dir")" ] || break
done
