#!/usr/bin/env bash
# Syscall-tracing overhead, as median wall-time ratios against an untraced run
# of the same workload in the same invocation. Every round runs every
# configuration once, in a fresh random order, so drift and cache effects
# spread evenly instead of landing on one configuration.
#   ROUNDS=7 LOOP=1000000 LOOP_SLOW=50000 bash bench/trace.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-7}; LOOP=${LOOP:-1000000}; LOOP_SLOW=${LOOP_SLOW:-50000}
command -v strace >/dev/null || { echo "strace is not installed: apt-get install strace" >&2; exit 1; }
cargo build -q --release -p genba
G=$PWD/target/release/genba
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
gcc -O1 -o "$T/loop" tests/programs/getppid_loop.c
TAR='tar cf - /usr/include | wc -c'

# name|command (workload a: LOOP calls; a-slow: LOOP_SLOW calls for the ptrace tools)
configs=(
  "a untraced|$T/loop $LOOP"
  "a floor|$G bench-floor -- $T/loop $LOOP"
  "a genba-c|$G trace -c -f -o /dev/null -- $T/loop $LOOP"
  "a genba-trace|$G trace -f -o $T/g.txt -- $T/loop $LOOP"
  "a-slow untraced|$T/loop $LOOP_SLOW"
  "a-slow strace-c|strace -c -f -o /dev/null -- $T/loop $LOOP_SLOW"
  "a-slow strace|strace -f -o $T/s.txt -- $T/loop $LOOP_SLOW"
  "a-slow genba-trace|$G trace -f -o $T/g.txt -- $T/loop $LOOP_SLOW"
  "b untraced|sh -c '$TAR'"
  "b floor|$G bench-floor -- sh -c '$TAR'"
  "b genba-c|$G trace -c -f -o /dev/null -- sh -c '$TAR'"
  "b genba-trace|$G trace -f -o $T/g.txt -- sh -c '$TAR'"
  "b genba-source|$G trace -f --source -o $T/g.txt -- sh -c '$TAR'"
  "b genba-stack|$G trace -f -k -o $T/g.txt -- sh -c '$TAR'"
  "b strace-c|strace -c -f -o /dev/null -- sh -c '$TAR'"
  "b strace|strace -f -o $T/s.txt -- sh -c '$TAR'"
)
if command -v perf >/dev/null; then
  configs+=("a-slow perf-trace|perf trace -o $T/p.txt -- $T/loop $LOOP_SLOW" "b perf-trace|perf trace -o $T/p.txt -- sh -c '$TAR'")
else
  echo "perf is not installed: perf trace rows skipped" >&2
fi

declare -A runs
ms() { local s; s=$(date +%s%N); eval "$1" >/dev/null 2>&1 || echo "failed: $1" >&2; echo $(( ($(date +%s%N) - s) / 1000000 )); }
# warm the page cache and the binaries once
ms "sh -c '$TAR'" >/dev/null; ms "$T/loop $LOOP" >/dev/null
for r in $(seq "$ROUNDS"); do
  while IFS= read -r i; do
    c=${configs[$i]}
    runs[${c%%|*}]="${runs[${c%%|*}]:-} $(ms "${c#*|}")"
  done < <(seq 0 $(( ${#configs[@]} - 1 )) | shuf)
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "rounds: $ROUNDS; workload a: getppid loop, $LOOP calls (a-slow: $LOOP_SLOW calls); b: $TAR"
printf '%-20s %10s %8s\n' config median_ms ratio
for key in $(printf '%s\n' "${!runs[@]}" | tr ' ' '~' | sort); do
  key=${key//\~/ }; m=$(echo "${runs[$key]}" | median)
  base=$(echo "${runs[${key%% *} untraced]}" | median)
  printf '%-20s %10s %8.2f\n' "$key" "$m" "$(echo "$m / $base" | bc -l)"
done
