#!/usr/bin/env bash
# Syscall-tracing overhead, as median wall-time ratios against an untraced run
# in the same invocation. Configurations are interleaved round by round.
#   ROUNDS=5 LOOP=1000000 LOOP_SLOW=50000 bash bench/trace.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}; LOOP=${LOOP:-1000000}; LOOP_SLOW=${LOOP_SLOW:-50000}
cargo build -q --release -p genba
G=$PWD/target/release/genba
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
gcc -O1 -o "$T/loop" tests/programs/getppid_loop.c
TAR='tar cf - /usr/include | wc -c'
declare -A runs
ms() { local s; s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; echo $(( ($(date +%s%N) - s) / 1000000 )); }
add() { runs[$1]="${runs[$1]:-} $2"; }
# warm the page cache and the binaries once, so round 1 is not an outlier
ms sh -c "$TAR" >/dev/null; ms "$T/loop" "$LOOP" >/dev/null
command -v strace >/dev/null || { echo "strace is not installed: apt-get install strace" >&2; exit 1; }
command -v perf >/dev/null || echo "perf is not installed: perf trace rows skipped" >&2
for r in $(seq "$ROUNDS"); do
  add "a untraced" "$(ms "$T/loop" "$LOOP")"
  add "a floor" "$(ms "$G" bench-floor -- "$T/loop" "$LOOP")"
  add "a genba-c" "$(ms "$G" trace -c -f -o /dev/null -- "$T/loop" "$LOOP")"
  add "a genba-trace" "$(ms "$G" trace -f -o "$T/g.txt" -- "$T/loop" "$LOOP")"
  add "a-slow untraced" "$(ms "$T/loop" "$LOOP_SLOW")"
  add "a-slow strace-c" "$(ms strace -c -f -o /dev/null -- "$T/loop" "$LOOP_SLOW")"
  add "a-slow strace" "$(ms strace -f -o "$T/s.txt" -- "$T/loop" "$LOOP_SLOW")"
  command -v perf >/dev/null && add "a-slow perf-trace" "$(ms perf trace -o "$T/p.txt" -- "$T/loop" "$LOOP_SLOW")"
  add "b untraced" "$(ms sh -c "$TAR")"
  add "b floor" "$(ms "$G" bench-floor -- sh -c "$TAR")"
  add "b genba-c" "$(ms "$G" trace -c -f -o /dev/null -- sh -c "$TAR")"
  add "b genba-trace" "$(ms "$G" trace -f -o "$T/g.txt" -- sh -c "$TAR")"
  add "b strace-c" "$(ms strace -c -f -o /dev/null -- sh -c "$TAR")"
  add "b strace" "$(ms strace -f -o "$T/s.txt" -- sh -c "$TAR")"
  command -v perf >/dev/null && add "b perf-trace" "$(ms perf trace -o "$T/p.txt" -- sh -c "$TAR")"
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "workload a: getppid loop, $LOOP calls (a-slow: $LOOP_SLOW calls, for ptrace tools); b: $TAR"
printf '%-20s %10s %8s\n' config median_ms ratio
for k in $(printf '%s\n' "${!runs[@]}" | tr ' ' '_' | sort); do
  key=${k//_/ }; m=$(echo "${runs[$key]}" | median)
  base=$(echo "${runs[${key%% *} untraced]}" | median)
  printf '%-20s %10s %8.2f\n' "$key" "$m" "$(echo "$m / $base" | bc -l)"
done
