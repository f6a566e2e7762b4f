#!/usr/bin/env bash
# Profiling overhead, as median ratios against an unprofiled run of the same
# fixed-work program in the same invocation (every round runs every
# configuration once, in a fresh random order). Two figures per run: the time
# the program measured for its own work (its slowdown while profiled), and
# the whole command's wall time (with the profiler's start-up and report).
#   (c) CPU-bound: profile_compute, 300 M iterations in one function.
#   (s) switch-heavy: profile_alias, two threads passing a byte through pipes
#       SWITCHES times (each side blocks ~10 us per round trip).
# Also genba record (every call and every off-CPU interval, exactly) and, on
# (s), genba trace -f: a recording should cost about trace + profile.
# Peers: perf record -g -e cpu-clock (on-CPU only) and
#        perf record -g -e sched:sched_switch,sched:sched_wakeup (off-CPU by tracing).
#   ROUNDS=7 SWITCHES=100000 bash bench/profile.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-7}; SWITCHES=${SWITCHES:-100000}; ITER=${ITER:-300}
command -v perf >/dev/null || { echo "perf is not installed: apt-get install linux-perf" >&2; exit 1; }
cargo build -q --release -p genba
G=$PWD/target/release/genba
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for p in compute alias; do
  gcc -O2 -g -pthread -o "$T/$p" "tests/programs/profile/profile_$p.c"
done
C="$T/compute $ITER"
S="$T/alias $SWITCHES 1"

configs=(
  "c untraced|$C"
  "c genba-profile|$G profile -o $T/g.txt -- $C"
  "c perf-cpu-clock|perf record -q -g -e cpu-clock -F 1000 -o $T/p.data -- $C"
  "c perf-sched|perf record -q -g -e sched:sched_switch,sched:sched_wakeup -o $T/p.data -- $C"
  "s untraced|$S"
  "s genba-profile|$G profile -o $T/g.txt -- $S"
  "s perf-cpu-clock|perf record -q -g -e cpu-clock -F 1000 -o $T/p.data -- $S"
  "s perf-sched|perf record -q -g -e sched:sched_switch,sched:sched_wakeup -o $T/p.data -- $S"
  "c genba-record|$G record -o $T/r.pftrace -- $C"
  "s genba-record|$G record -o $T/r.pftrace -- $S"
  "s genba-trace|$G trace -f -o $T/t.txt -- $S"
)

declare -A runs work
# prints "total_ms work_ms": the program's own first wall_ns is its work
ms() { local s; s=$(date +%s%N); eval "$1" >"$T/out" 2>"$T/err" || { echo "failed: $1" >&2; cat "$T/err" >&2; }
       local tot=$(( ($(date +%s%N) - s) / 1000000 ))
       local w; w=$(grep -o '"wall_ns":[0-9]*' "$T/out" | head -1 | cut -d: -f2)
       echo "$tot $(( ${w:-0} / 1000000 ))"; }
lost=0
ms "$C" >/dev/null; ms "$S" >/dev/null
for r in $(seq "$ROUNDS"); do
  while IFS= read -r i; do
    c=${configs[$i]}
    read -r tot w < <(ms "${c#*|}")
    runs[${c%%|*}]="${runs[${c%%|*}]:-} $tot"; work[${c%%|*}]="${work[${c%%|*}]:-} $w"
    if [[ ${c%%|*} == *genba* ]]; then
      n=$(sed -n 's/^genba: \([0-9]*\) events lost.*/\1/p' "$T/err"); lost=$((lost + ${n:-0}))
    fi
  done < <(seq 0 $(( ${#configs[@]} - 1 )) | shuf)
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "rounds: $ROUNDS; c: profile_compute $ITER M iterations; s: profile_alias $SWITCHES pipe round trips"
printf '%-20s %9s %6s   %9s %6s\n' config work_ms ratio total_ms ratio
for key in $(printf '%s\n' "${!runs[@]}" | tr ' ' '~' | sort); do
  key=${key//\~/ }; m=$(echo "${runs[$key]}" | median); w=$(echo "${work[$key]}" | median)
  base=$(echo "${runs[${key%% *} untraced]}" | median); wbase=$(echo "${work[${key%% *} untraced]}" | median)
  printf '%-20s %9s %6.3f   %9s %6.2f\n' "$key" "$w" "$(echo "$w / $wbase" | bc -l)" "$m" "$(echo "$m / $base" | bc -l)"
done
echo "genba events lost over all runs: $lost"
