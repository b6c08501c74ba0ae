#!/usr/bin/env bash
# Measures the exact-results table of docs/src/exact-results.md: for each game and objective,
# `moo tree build` on one thread under `/usr/bin/time -f "%e %U %M"`, then `moo tree verify` on the
# tree it wrote, which must replay to the figures the build printed (or the script stops).
# Prints one Markdown row per run:
#   | game | codes | objective | total | average | worst (secrets there) | wall s | CPU s | peak MB | sets |
#
#   usage: scripts/exact-results.sh OUT_DIR [GAMES] [OBJECTIVES]
# OUT_DIR: where the trees (GAME-OBJECTIVE.json) and checkpoints go; kept after the run.
# GAMES: space-separated subset of the names below (default: all but mm4x9 and mm5x6, which take
#   minutes to hours and gigabytes).
# OBJECTIVES: space-separated subset of average worst fewest-worst (default all three).
# Set NICE=10 (or any niceness) to run every build under nice, TIMEOUT=SECONDS to give up on a
# build (the row then says so), CHECKPOINT=1 to keep a checkpoint per build in OUT_DIR (a run
# again then resumes; its time is no longer the whole search's), MOO=path to use another binary.
set -euo pipefail
out=${1:?usage: scripts/exact-results.sh OUT_DIR [GAMES] [OBJECTIVES]}
cd "$(dirname "$0")/.."
if [ -z "${MOO:-}" ]; then
  cargo build --release --quiet --bin moo
  MOO=${CARGO_TARGET_DIR:-target}/release/moo
fi
mkdir -p "$out"

# game -> its rule flags and a name.
declare -A flags=(
  [mm4x6]="--game mastermind"
  [mm4x7]="--game mastermind --symbols 1234567"
  [mm4x8]="--game mastermind --symbols 12345678"
  [mm4x9]="--game mastermind --symbols 123456789"
  [mm5x5]="--game mastermind --length 5 --symbols 12345"
  [mm5x6]="--game mastermind --length 5"
  [mm3x4]="--game mastermind --length 3 --symbols 1234"
  [mm3x5]="--game mastermind --length 3 --symbols 12345"
  [mm3x6]="--game mastermind --length 3"
  [mm3x7]="--game mastermind --length 3 --symbols 1234567"
  [mm3x8]="--game mastermind --length 3 --symbols 12345678"
  [mm3x9]="--game mastermind --length 3 --symbols 123456789"
  [mm3x10]="--game mastermind --length 3 --symbols 0123456789"
  [bc4x10]=""
  [bc4x9]="--symbols 123456789"
  [bc4x10n]="--no-leading-zero"
  [bc5x8]="--length 5 --symbols 01234567"
)
declare -A names=(
  [mm4x6]="Mastermind 4x6" [mm4x7]="Mastermind 4x7" [mm4x8]="Mastermind 4x8"
  [mm4x9]="Mastermind 4x9" [mm5x5]="Mastermind 5x5" [mm5x6]="Mastermind 5x6"
  [mm3x4]="Mastermind 3x4" [mm3x5]="Mastermind 3x5" [mm3x6]="Mastermind 3x6"
  [mm3x7]="Mastermind 3x7" [mm3x8]="Mastermind 3x8" [mm3x9]="Mastermind 3x9"
  [mm3x10]="Mastermind 3x10" [bc4x10]="Bulls and Cows 4 of 0-9"
  [bc4x9]="Bulls and Cows 4 of 1-9" [bc4x10n]="Bulls and Cows 4 of 0-9, no leading 0"
  [bc5x8]="Bulls and Cows 5 of 0-7"
)
games=${2:-mm3x4 mm3x5 mm3x6 mm3x7 mm3x8 mm3x9 mm3x10 mm4x6 mm4x7 mm4x8 mm5x5 bc4x9 bc4x10 bc4x10n bc5x8}
objectives=${3:-average worst fewest-worst}

field() { grep -o "\"$1\":[0-9.]*" | head -1 | cut -d: -f2; }

for g in $games; do
  [ -n "${names[$g]+x}" ] || { echo "error: unknown game $g (one of: ${!names[*]})" >&2; exit 2; }
  for o in $objectives; do
    tree="$out/$g-$o.json"
    run=(nice -n "${NICE:-0}")
    [ -n "${TIMEOUT:-}" ] && run+=(timeout "$TIMEOUT")
    resume=()
    [ -n "${CHECKPOINT:-}" ] && resume=(--checkpoint "$out/$g-$o.checkpoint")
    # shellcheck disable=SC2086
    if ! /usr/bin/time -f "%e %U %M" -o "$out/$g-$o.time" "${run[@]}" "$MOO" tree build ${flags[$g]} \
      --objective "$o" --threads 1 "${resume[@]}" --progress-log "$out/$g-$o.log" --json -o "$tree" >"$out/$g-$o.out" 2>"$out/$g-$o.err"; then
      echo "| ${names[$g]} | | $o | did not finish: $(tail -n 1 "$out/$g-$o.err") | | | | | | |"
      continue
    fi
    built=$(cat "$out/$g-$o.out")
    verified=$("$MOO" tree verify --json "$tree")
    for f in secrets total max at_worst; do
      if [ "$(field "$f" <<<"$built")" != "$(field "$f" <<<"$verified")" ]; then
        echo "error: $g $o: the build printed $built, verify replays $verified" >&2
        exit 1
      fi
    done
    read -r wall cpu kb <"$out/$g-$o.time"
    printf '| %s | %s | %s | %s | %.4f | %s (%s) | %s | %s | %d | %s |\n' "${names[$g]}" \
      "$(field secrets <<<"$built")" "$o" "$(field total <<<"$built")" \
      "$(field average <<<"$built")" "$(field max <<<"$built")" "$(field at_worst <<<"$built")" \
      "$wall" "$cpu" $((kb / 1024)) "$(field nodes <<<"$built")"
  done
done
