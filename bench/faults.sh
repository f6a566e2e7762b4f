#!/usr/bin/env bash
# How often BPF cannot read a syscall's user memory on real programs: reads
# that fail at entry (a page not yet present), and arguments that could still
# not be read at exit or from /proc (printed as addresses, as strace prints
# an unreadable pointer).   bash bench/faults.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p genba
G=$PWD/target/release/genba
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
printf '%-45s %9s %8s %8s %11s\n' command captures faults rate unreadable
for c in "ls -la /usr/bin" "python3 -c pass" "tar cf /dev/null /usr/include/linux" \
         "git --version" "gcc --version" "sh -c 'sort /etc/passwd | uniq -c'" "perl -e 'print 1'"; do
  err=$(GENBA_DEBUG=1 "$G" trace -f -o "$T/t.txt" -- sh -c "$c" 2>&1 >/dev/null || true)
  stats=$(printf '%s\n' "$err" | grep 'collector stats' || true)
  caps=$(printf '%s' "$stats" | sed -E 's/.*captures: ([0-9]+).*/\1/')
  faults=$(printf '%s' "$stats" | sed -E 's/.*faults: ([0-9]+).*/\1/')
  unread=$(printf '%s\n' "$err" | sed -nE 's/^genba: ([0-9]+) arguments shown as addresses.*/\1/p')
  printf '%-45s %9s %8s %7.3f%% %11s\n' "$c" "$caps" "$faults" "$(echo "100 * $faults / $caps" | bc -l)" "${unread:-0}"
done
