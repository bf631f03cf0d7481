#!/bin/bash
# Runs one experiment as a Slurm job array: task i of N runs shard i/N (all configurations and
# repetitions of every N-th puzzle, see `sudolab run --help` and docs/experiments.md), writing
# results/<name>-shard<i>.csv and its .json sidecar. Submit from the repository root:
#
#   sbatch --array=0-7 scripts/cluster/slurm-array.sh experiments/quick.toml
#
# --array=0-(N-1) sets N. A failed or killed task is re-run by resubmitting just it, telling
# it N (a one-task array would otherwise count 1 shard); --resume keeps the rows it wrote:
#
#   sbatch --array=3 --export=ALL,SHARDS=8 scripts/cluster/slurm-array.sh experiments/quick.toml
# When every task is done,
# merge the shards (this checks that each job is there exactly once):
#
#   sudolab merge results/quick-shard*.csv -o results/quick.csv
#
#SBATCH --job-name=sudolab
#SBATCH --array=0-7
#SBATCH --cpus-per-task=1
#SBATCH --mem=2G
#SBATCH --time=02:00:00
#SBATCH --output=slurm-%A_%a.out
set -euo pipefail

CONFIG=${1:?usage: sbatch --array=0-(N-1) scripts/cluster/slurm-array.sh EXPERIMENT.toml}
ID=${SLURM_ARRAY_TASK_ID:?not running as a Slurm array task}
COUNT=${SHARDS:-${SLURM_ARRAY_TASK_COUNT:?not running as a Slurm array task}}
NAME=$(sed -n 's/^name *= *"\(.*\)".*/\1/p' "$CONFIG" | head -n 1)
BIN=${SUDOLAB:-target/release/sudolab}
[ -x "$BIN" ] || cargo build --release --locked

# One thread per task (Slurm gives each task its own core); no charts per shard: draw them
# from the merged output.
"$BIN" run "$CONFIG" --threads "${SLURM_CPUS_PER_TASK:-1}" --shard "$ID/$COUNT" --resume \
    --no-charts --out "results/$NAME-shard$ID.csv"
