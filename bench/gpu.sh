#!/usr/bin/env bash
# What genba's OpenCL layer costs the program, per call, measured by the
# program itself (bench/programs/opencl_calls.c: N clSetKernelArg, then
# N/100 enqueue+finish of an empty kernel, N clGetEventProfilingInfo of a
# completed event, each loop on CLOCK_MONOTONIC):
#   plain     no layer
#   idle      the layer loaded, genba not recording (no GENBA_GPU_DIR): it
#             only forwards
#   layer     the layer loaded and recording into its ring (no reader: the
#             ring fills and later records are counted as lost, the cost of
#             writing them is the same)
#   record    genba record --gpu (the layer, and genba reading the ring,
#             tracing the program's system calls and scheduling too)
# Configurations alternate, ROUNDS times; medians of each loop's ns per call.
# Then the programs' own end-to-end times (their own CLOCK_MONOTONIC, start
# of main to the end): the OpenCL test program (tests/programs/gpu/
# opencl_vadd.c, 1M floats, 20 rounds) and the wgpu sum reduction
# (tests/programs/gpu/wgpu_sum, 4M numbers, 3 rounds on lavapipe), plain
# and under `genba record --gpu`, alternating; medians and their ratio.
#   ROUNDS=7 N=200000 bash bench/gpu.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-7}; N=${N:-200000}
cargo build -q --release -p genba
G=$PWD/target/release/genba
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
gcc -O2 -o "$T/calls" bench/programs/opencl_calls.c -lOpenCL
gcc -O2 -Wall -fPIC -shared -fvisibility=hidden -o "$T/layer.so" \
    crates/genba-gpu/shim/opencl_layer.c -lpthread
mkdir -p "$T/rings"
declare -A set enq prof
for r in $(seq "$ROUNDS"); do
  for c in plain idle layer record; do
    case $c in
      plain) out=$("$T/calls" "$N") ;;
      idle) out=$(OPENCL_LAYERS="$T/layer.so" "$T/calls" "$N") ;;
      layer) rm -f "$T"/rings/*; out=$(OPENCL_LAYERS="$T/layer.so" GENBA_GPU_DIR="$T/rings" "$T/calls" "$N") ;;
      record) out=$("$G" record --gpu -o "$T/r.pftrace" -- "$T/calls" "$N" 2>/dev/null) ;;
    esac
    read -r a b p <<<"$out"
    set[$c]+="$a "; enq[$c]+="$b "; prof[$c]+="$p "
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-8s %18s %18s %26s\n' config "clSetKernelArg ns" "enqueue+finish ns" "clGetEventProfilingInfo ns"
for c in plain idle layer record; do
  printf '%-8s %18s %18s %26s\n' "$c" "$(echo "${set[$c]}" | median)" "$(echo "${enq[$c]}" | median)" \
    "$(echo "${prof[$c]}" | median)"
done

# the programs end to end
gcc -O2 -o "$T/vadd" tests/programs/gpu/opencl_vadd.c -lOpenCL
CARGO_TARGET_DIR=$PWD/target/wgpu-sum cargo build -q --locked \
    --manifest-path tests/programs/gpu/wgpu_sum/Cargo.toml
W=$PWD/target/wgpu-sum/debug/wgpu_sum
own() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["wall_ns"])'; }
declare -A e2e
for r in $(seq "$ROUNDS"); do
  e2e[vadd_plain]+="$("$T/vadd" plain 1048576 20 | own) "
  e2e[vadd_record]+="$("$G" record --gpu -o "$T/v.pftrace" -- "$T/vadd" plain 1048576 20 2>/dev/null | own) "
  e2e[wgpu_plain]+="$("$W" 4194304 3 2>/dev/null | own) "
  e2e[wgpu_record]+="$("$G" record --gpu -o "$T/w.pftrace" -- "$W" 4194304 3 2>/dev/null | own) "
done
printf '\n%-12s %12s %12s %7s\n' program "plain ms" "record ms" ratio
for p in vadd wgpu; do
  a=$(echo "${e2e[${p}_plain]}" | median); b=$(echo "${e2e[${p}_record]}" | median)
  awk -v p="$p" -v a="$a" -v b="$b" 'BEGIN { printf "%-12s %12.1f %12.1f %7.3f\n", p, a / 1e6, b / 1e6, b / a }'
done
