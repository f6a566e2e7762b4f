#!/usr/bin/env bash
# What genba's OpenCL layer costs the program, per call, measured by the
# program itself (bench/programs/opencl_calls.c: N clSetKernelArg, then
# N/100 enqueue+finish of an empty kernel, each loop on CLOCK_MONOTONIC):
#   plain     no layer
#   layer     the layer loaded and recording into its ring (no reader: the
#             ring fills and later records are counted as lost, the cost of
#             writing them is the same)
#   record    genba record --gpu (the layer, and genba reading the ring,
#             tracing the program's system calls and scheduling too)
# Configurations alternate, ROUNDS times; medians of each loop's ns per call.
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
declare -A set enq
for r in $(seq "$ROUNDS"); do
  for c in plain layer record; do
    case $c in
      plain) out=$("$T/calls" "$N") ;;
      layer) rm -f "$T"/rings/*; out=$(OPENCL_LAYERS="$T/layer.so" GENBA_GPU_DIR="$T/rings" "$T/calls" "$N") ;;
      record) out=$("$G" record --gpu -o "$T/r.pftrace" -- "$T/calls" "$N" 2>/dev/null) ;;
    esac
    set[$c]+="${out% *} "; enq[$c]+="${out#* } "
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-8s %18s %18s\n' config "clSetKernelArg ns" "enqueue+finish ns"
for c in plain layer record; do
  printf '%-8s %18s %18s\n' "$c" "$(echo "${set[$c]}" | median)" "$(echo "${enq[$c]}" | median)"
done
