#!/usr/bin/env bash
# genba causal's cost, on the scenario programs of tests/programs/causal/:
#   - the profiling part: the program's own rate (rounds a second, which it
#     prints) in causal's baseline windows (nothing delayed in them), and
#     under genba profile (at its default 1 kHz, and at causal's 4 kHz), as
#     ratios to its untraced rate in the same round;
#   - the delay mechanism: the delays taken in a run, and how much longer a
#     delay slept than it was asked (signal delivery, the handler's clock
#     reads and timer-slack changes, the sleep's overshoot), from the
#     runtime's own counts.
# Each round runs every configuration once, in a fresh random order.
#   ROUNDS=5 SECONDS_RUN=8 bash bench/causal.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}; RUN=${SECONDS_RUN:-8}
cargo build -q --release -p genba
G=$PWD/target/release/genba
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for p in serial barrier; do
  gcc -O1 -g -pthread -Iinclude -o "$T/$p" "tests/programs/causal/$p.c"
done

# name|program
programs=("serial|$T/serial 100 100 $RUN" "barrier|$T/barrier 100 100 $RUN")
declare -A rates
for r in $(seq "$ROUNDS"); do
  order=$(for i in "${!programs[@]}"; do for c in untraced profile profile4k causal; do echo "$i $c"; done; done | shuf)
  while read -r i c; do
    name=${programs[$i]%%|*}; cmd=${programs[$i]#*|}
    case $c in
      untraced) v=$(cd tests/programs/causal && $cmd) ;;
      profile) v=$(cd tests/programs/causal && $G profile -o "$T/p.txt" -- $cmd) ;;
      # at causal's own default rate: the same sampling, without experiments
      profile4k) v=$(cd tests/programs/causal && $G profile -F 4000 -o "$T/p.txt" -- $cmd) ;;
      causal)
        (cd tests/programs/causal && $G causal --format json -o "$T/c.json" \
          --progress round=round_done --warmup-ms 500 -- $cmd >/dev/null)
        v=$(python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
dl=d["delays"] or {"taken":0,"ns":0,"asked_ns":0}
print("%.3f %d %d %d" % (d["progress"][0]["baseline_visits_per_s"], dl["taken"], dl["ns"], dl["asked_ns"]))' "$T/c.json") ;;
    esac
    rates[$name/$c]+="$v;"
  done <<< "$order"
done

python3 - "$ROUNDS" <<EOF
import statistics as st, sys
rates = {k: [x for x in v.split(";") if x] for k, v in {
$(for k in "${!rates[@]}"; do echo "  \"$k\": \"${rates[$k]}\","; done)
}.items()}
print("| program | untraced rounds/s | genba profile | genba profile -F 4000 | causal baselines (-F 4000) | delays a run | slept beyond asked, a delay |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name in ("serial", "barrier"):
    u = st.median(float(x) for x in rates[name + "/untraced"])
    p = st.median(float(x) for x in rates[name + "/profile"])
    p4 = st.median(float(x) for x in rates[name + "/profile4k"])
    cs = [x.split() for x in rates[name + "/causal"]]
    c = st.median(float(x[0]) for x in cs)
    taken = st.median(int(x[1]) for x in cs)
    extra = st.median((int(x[2]) - int(x[3])) / max(int(x[1]), 1) / 1e3 for x in cs)
    print(f"| {name} | {u:.1f} | {p/u:.3f} | {p4/u:.3f} | {c/u:.3f} | {taken:.0f} | {extra:.1f} us |")
EOF
