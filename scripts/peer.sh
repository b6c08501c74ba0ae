#!/usr/bin/env bash
# Side-by-side timing of moo's exact search against the fastest published exact solver we know
# (fancidev/mastermind, its 2012 C++ `mmstrat`), one thread each, runs alternating so that both
# see the same machine. Prints a Markdown table of CPU (user + system) seconds, medians over the
# runs, and the ratio moo / fancidev. Both programs must print the same optimal total, or the
# script stops.
#
#   usage: scripts/peer.sh MMSTRAT [RUNS] [GAMES]
# MMSTRAT: the peer's binary, built by ../shared/peers/fancidev.sh (OUT_DIR/build/mmstrat) from
#   the fetched git directory of github:fancidev/mastermind. Never vendored here.
# RUNS: runs of each program per game (default 3).
# GAMES: space-separated subset of: mm p4c9n bc p4c7r p5c5r (default the first three; bc takes
#   about 2 minutes a run for the peer). p4c7r is Mastermind with 7 colours (2401 codes), p5c5r
#   Mastermind with 5 pegs of 5 colours (3125 codes), both with repeats.
set -euo pipefail
peer=${1:?usage: scripts/peer.sh MMSTRAT [RUNS] [GAMES]}
runs=${2:-3}
games=${3:-mm p4c9n bc}
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin moo
moo=target/release/moo
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# game -> the peer's rule name, moo's rule flags, the published total.
declare -A flags=([mm]="--game mastermind" [p4c9n]="--symbols 123456789" [bc]=""
  [p4c7r]="--game mastermind --symbols 1234567" [p5c5r]="--game mastermind --length 5 --symbols 12345")
declare -A names=([mm]="Mastermind 4x6" [p4c9n]="Bulls and Cows, 4 of 1-9" [bc]="Bulls and Cows, 4 of 0-9"
  [p4c7r]="Mastermind 4x7" [p5c5r]="Mastermind 5x5")

cpu() { # command... -> prints "seconds" of user + system CPU; the command's stdout goes to $out/stdout
  /usr/bin/time -f "%U %S" -o "$out/time" "$@" >"$out/stdout" 2>/dev/null
  awk '{ printf "%.3f\n", $1 + $2 }' "$out/time"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "| Game | Total | fancidev CPU s | moo CPU s | moo / fancidev |"
echo "|---|---|---|---|---|"
for g in $games; do
  [ -n "${names[$g]+x}" ] || { echo "error: unknown game $g (one of: ${!names[*]})" >&2; exit 2; }
  : >"$out/peer.times"
  : >"$out/moo.times"
  for _ in $(seq "$runs"); do
    cpu "$peer" -r "$g" -s optimal -S -q >>"$out/peer.times"
    peer_total=$(cut -d: -f1 "$out/stdout")
    # shellcheck disable=SC2086
    cpu "$moo" tree build ${flags[$g]} --threads 1 --json -o "$out/tree.json" >>"$out/moo.times"
    moo_total=$(grep -o '"total":[0-9]*' "$out/stdout" | head -1 | cut -d: -f2)
    if [ "$peer_total" != "$moo_total" ]; then
      echo "error: $g: fancidev's total $peer_total, moo's $moo_total" >&2
      exit 1
    fi
  done
  p=$(median <"$out/peer.times")
  m=$(median <"$out/moo.times")
  echo "| ${names[$g]} | $moo_total | $p | $m | $(awk -v m="$m" -v p="$p" 'BEGIN { printf "%.2f", m / p }') |"
done
