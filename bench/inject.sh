#!/usr/bin/env bash
# The cost of -e inject= (genba: a seccomp listener; strace: ptrace), per
# call acted on, as median wall times against an untraced run of the same
# workload in the same invocation (every round runs every configuration
# once, in a fresh random order).
#   ROUNDS=5 LOOP=20000 bash bench/inject.sh
# Configurations, all on a loop of LOOP getppid calls:
#   genba-trace     tracing, nothing injected (the baseline of tracing)
#   genba-retval    every call answered with a return value (does not run)
#   genba-continue  every call stopped and let run (when= past the end)
#   strace-retval, strace-trace   the same with strace
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}; LOOP=${LOOP:-20000}
command -v strace >/dev/null || { echo "strace is not installed: apt-get install strace" >&2; exit 1; }
cargo build -q --release -p genba
G=$PWD/target/release/genba
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
gcc -O1 -o "$T/loop" tests/programs/getppid_loop.c

configs=(
  "untraced|$T/loop $LOOP"
  "genba-trace|$G trace -o $T/g.txt -- $T/loop $LOOP"
  "genba-retval|$G trace -o $T/g.txt -e inject=getppid:retval=1 -- $T/loop $LOOP"
  "genba-continue|$G trace -o $T/g.txt -e inject=getppid:error=EPERM:when=65535 -- $T/loop $LOOP"
  "strace-trace|strace -o $T/s.txt -- $T/loop $LOOP"
  "strace-retval|strace -o $T/s.txt -e inject=getppid:retval=1 -- $T/loop $LOOP"
)
declare -A runs
us() { local s; s=$(date +%s%N); eval "$1" >/dev/null 2>&1 || echo "failed: $1" >&2; echo $(( ($(date +%s%N) - s) / 1000 )); }
us "$T/loop $LOOP" >/dev/null
for r in $(seq "$ROUNDS"); do
  while IFS= read -r i; do
    c=${configs[$i]}
    runs[${c%%|*}]="${runs[${c%%|*}]:-} $(us "${c#*|}")"
  done < <(seq 0 $(( ${#configs[@]} - 1 )) | shuf)
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
base=$(echo "${runs[untraced]}" | median)
echo "rounds: $ROUNDS; workload: getppid loop, $LOOP calls"
printf '%-16s %10s %8s %14s\n' config median_ms ratio extra_ns/call
for c in "${configs[@]}"; do
  key=${c%%|*}; m=$(echo "${runs[$key]}" | median)
  printf '%-16s %10.1f %8.2f %14.0f\n' "$key" "$(echo "$m / 1000" | bc -l)" "$(echo "$m / $base" | bc -l)" "$(echo "($m - $base) * 1000 / $LOOP" | bc -l)"
done
