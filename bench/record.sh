#!/usr/bin/env bash
# Does a recording cost more than the sum of its parts? Wall time of
#   untraced, genba trace -f -o FILE, genba profile -o FILE, genba record
# on two workloads, every configuration once per round in a fresh random
# order, medians over the rounds:
#   (a) getppid_loop: 1M of the cheapest system call;
#   (m) make -j2: the project's C test programs compiled (a real build:
#       processes, files, pipes, two CPUs).
# Prints each configuration's overhead over untraced and the ratio
#   record overhead / (trace overhead + profile overhead)
# which the recording should keep at or below 1.1.
#   ROUNDS=5 LOOP=1000000 bash bench/record.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}; LOOP=${LOOP:-1000000}
cargo build -q --release -p genba
G=$PWD/target/release/genba
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
gcc -O2 -o "$T/loop" tests/programs/getppid_loop.c
mkdir -p "$T/build"
srcs=$(ls tests/programs/*.c)
{
  printf 'all:'; for s in $srcs; do printf ' %s' "$(basename "${s%.c}").o"; done; printf '\n'
  for s in $srcs; do
    printf '%s.o: %s\n\tgcc -O2 -g -c -o $@ $<\n' "$(basename "${s%.c}")" "$PWD/$s"
  done
  printf 'clean:\n\trm -f *.o\n'
} > "$T/build/Makefile"
A="$T/loop $LOOP"
M="make -s -C $T/build clean >/dev/null && make -s -j2 -C $T/build"

configs=(
  "a untraced|$A"
  "a trace|$G trace -f -o $T/t.txt -- $A"
  "a profile|$G profile -o $T/p.txt -- $A"
  "a record|$G record -o $T/r.pftrace -- $A"
  "m untraced|sh -c '$M'"
  "m trace|$G trace -f -o $T/t.txt -- sh -c '$M'"
  "m profile|$G profile -o $T/p.txt -- sh -c '$M'"
  "m record|$G record -o $T/r.pftrace -- sh -c '$M'"
)
declare -A runs
lost=0
for r in $(seq "$ROUNDS"); do
  while IFS= read -r i; do
    c=${configs[$i]}
    s=$(date +%s%N)
    eval "${c#*|}" >/dev/null 2>"$T/err" || { echo "failed: ${c#*|}" >&2; cat "$T/err" >&2; exit 1; }
    runs[${c%%|*}]="${runs[${c%%|*}]:-} $(( ($(date +%s%N) - s) / 1000000 ))"
    n=$(sed -n 's/^genba: \([0-9]*\) events lost.*/\1/p' "$T/err" | head -1); lost=$((lost + ${n:-0}))
  done < <(seq 0 $(( ${#configs[@]} - 1 )) | shuf)
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "rounds: $ROUNDS; a: getppid_loop $LOOP; m: make -j2 of $(echo "$srcs" | wc -w) C files"
printf '%-12s %9s %7s %12s\n' config median_ms ratio overhead_ms
for w in a m; do
  base=$(echo "${runs[$w untraced]}" | median)
  declare -A over
  for k in untraced trace profile record; do
    m=$(echo "${runs[$w $k]}" | median)
    over[$k]=$(( m - base ))
    printf '%-12s %9s %7.2f %12s\n' "$w $k" "$m" "$(echo "$m / $base" | bc -l)" "${over[$k]}"
  done
  sum=$(( over[trace] + over[profile] ))
  if [ "$sum" -gt 0 ]; then
    printf '%s: record overhead / (trace + profile overheads) = %.2f\n' "$w" "$(echo "${over[record]} / $sum" | bc -l)"
  fi
done
echo "genba events lost over all runs: $lost"
