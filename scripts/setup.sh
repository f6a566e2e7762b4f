#!/usr/bin/env bash
# Installs what is missing, builds genba, and traces the bundled demo workload.
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
