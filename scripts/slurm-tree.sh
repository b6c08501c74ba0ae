#!/bin/bash
#SBATCH --job-name=moo-tree
#SBATCH --array=0-12
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
# Submit with the range `moo tree split` printed: sbatch --array=0-N slurm-tree.sh JOBS_DIR
moo tree job "${1:?usage: sbatch --array=0-N slurm-tree.sh JOBS_DIR}" \
  --index "$SLURM_ARRAY_TASK_ID" --threads "$SLURM_CPUS_PER_TASK"
