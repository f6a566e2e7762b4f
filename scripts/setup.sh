#!/usr/bin/env bash
# Installs what is missing, builds genba, traces the bundled demo workload,
# profiles a bundled demo program, records one and reports the recording,
# records an OpenCL program with --gpu, and runs causal experiments on a
# two-thread program.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
genba_install_deps
cargo build --release -p genba
G=target/release/genba
demo='ls / >/dev/null; cat /etc/hostname >/dev/null; tar cf - /usr/include/linux 2>/dev/null | wc -c >/dev/null'
echo "== genba trace -f (first 25 lines) =="
$G trace -f -o /tmp/genba-demo.txt -- sh -c "$demo"
head -n 25 /tmp/genba-demo.txt
echo "== genba trace -c -f (summary kept in the kernel) =="
$G trace -c -f -U time-percent,total-time,avg-time,p50,p99,max-time,calls,errors,name -- sh -c "$demo"
echo "== genba profile (on- and off-CPU): a program that computes, fsyncs, waits on a mutex and sleeps =="
gcc -O2 -g -pthread -o /tmp/genba-demo-mixed tests/programs/profile/profile_mixed.c
$G profile --rows 12 --flamegraph /tmp/genba-demo.svg -o /tmp/genba-demo-profile.txt -- /tmp/genba-demo-mixed 1000 /var/tmp >/dev/null
cat /tmp/genba-demo-profile.txt
echo "(flame graph: /tmp/genba-demo.svg)"
echo "== genba record, then genba report: two threads ping-pong a token over pipes =="
gcc -O2 -g -pthread -o /tmp/genba-demo-pingpong tests/programs/record_pingpong.c
$G record -o /tmp/genba-demo.pftrace -- /tmp/genba-demo-pingpong >/dev/null
$G report /tmp/genba-demo.pftrace
$G report --html /tmp/genba-demo.html /tmp/genba-demo.pftrace
echo "(the recording: /tmp/genba-demo.pftrace, open it in ui.perfetto.dev; the page: /tmp/genba-demo.html)"
echo "== genba record --gpu: an OpenCL vector add on pocl, its calls and the device's own times =="
gcc -O1 -o /tmp/genba-demo-vadd tests/programs/gpu/opencl_vadd.c -lOpenCL
$G record --gpu -o /tmp/genba-demo-gpu.pftrace -- /tmp/genba-demo-vadd plain 1048576 5 >/dev/null
$G report /tmp/genba-demo-gpu.pftrace | sed -n '/^GPU commands/,$p' | sed '/^# samples/,$d'
echo "(the recording: /tmp/genba-demo-gpu.pftrace)"
echo "== genba causal: two threads meet at a barrier; which part would make the rounds faster? =="
gcc -O1 -g -pthread -o /tmp/genba-demo-barrier tests/programs/causal/barrier.c
C=$(grep -n "the compute line" tests/programs/causal/barrier.c | cut -d: -f1)
W=$(grep -n "the wait line" tests/programs/causal/barrier.c | cut -d: -f1)
(cd tests/programs/causal && "$OLDPWD/$G" causal --progress round=round_done \
  --candidate "barrier.c:$C" --candidate "[B] barrier.c:$W" -- /tmp/genba-demo-barrier 100 100 10 >/dev/null)
