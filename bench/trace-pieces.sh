#!/usr/bin/env bash
# What each piece of the trace programs' per-call work costs on this host:
# the floor (empty programs on sys_enter and sys_exit), then the floor with
# one piece added to both programs, then genba trace -c and the full trace.
# Figures are the ns per getppid call the program measures itself (median
# over ROUNDS; every round runs every configuration once, in a fresh random
# order), and each piece's cost per call is its median minus the floor's.
#   ROUNDS=11 LOOP=2000000 bash bench/trace-pieces.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-11}; LOOP=${LOOP:-2000000}
cargo build -q --release -p genba
G=$PWD/target/release/genba
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
gcc -O2 -o "$T/loop" bench/programs/getppid_timed.c
L="$T/loop $LOOP"

# name|command; "floor+X": the floor with piece X (genba bench-floor --pieces)
configs=(
  "untraced|$L"
  "floor|$G bench-floor -- $L"
  "floor+id|$G bench-floor --pieces id -- $L"
  "floor+clock|$G bench-floor --pieces clock -- $L"
  "floor+query|$G bench-floor --pieces query -- $L"
  "floor+copy|$G bench-floor --pieces copy -- $L"
  "floor+loads|$G bench-floor --pieces loads -- $L"
  "floor+id,clock|$G bench-floor --pieces id,clock -- $L"
  "trace -c|$G trace -c -f -o /dev/null -- $L"
  "trace -c -w|$G trace -c -w -f -o /dev/null -- $L"
  "trace|$G trace -f -o $T/g.txt -- $L"
)
declare -A runs
ns() { eval "$1" 2>&1 >/dev/null | sed -n 's/^ns_per_call //p' | tail -1; }
for r in $(seq "$ROUNDS"); do
  while IFS= read -r i; do
    c=${configs[$i]}
    v=$(ns "${c#*|}")
    [ -n "$v" ] || { echo "no figure from: ${c#*|}" >&2; exit 1; }
    runs[${c%%|*}]="${runs[${c%%|*}]:-} $v"
  done < <(seq 0 $(( ${#configs[@]} - 1 )) | shuf)
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
base=$(echo "${runs[untraced]}" | median)
floor=$(echo "${runs[floor]}" | median)
echo "rounds: $ROUNDS; $LOOP getppid calls; ns per call, medians (min..max)"
printf '%-16s %8s %14s %10s %10s\n' config ns_call range over_untr over_floor
for c in "${configs[@]}"; do
  k=${c%%|*}; s=$(echo "${runs[$k]}" | tr ' ' '\n' | grep . | sort -n)
  m=$(echo "$s" | median)
  printf '%-16s %8.1f %6.1f..%-6.1f %10.1f %10.1f\n' "$k" "$m" "$(echo "$s" | head -1)" "$(echo "$s" | tail -1)" \
    "$(echo "$m - $base" | bc -l)" "$(echo "$m - $floor" | bc -l)"
done
