#!/bin/bash
# Runs strace 6.1's own test suite against genba (and against strace, to know
# which tests strace itself passes here) and reports genba's pass rate over
# the tests strace passes. See docs/STRACE-SUITE.md.
#
#   bash bench/strace-suite.sh                      # all 1113 generated tests
#   bash bench/strace-suite.sh --subset bench/strace-suite.subset --min-pass 40
#   bash bench/strace-suite.sh --family ioctl       # one family (see below)
#   bash bench/strace-suite.sh -j 2 accept4 read-write clone_parent-q
#
# Options:
#   --subset FILE     tests named in FILE (one a line, '#' comments)
#   --family NAME     the tests of one family (repeatable)
#   TEST...           tests by name (NAME, NAME.gen.test or NAME.test)
#   -j N              parallel jobs (default 2)
#   --timeout S       per-test limit for genba, in seconds (default 60, or 3x
#                     the time strace took on the test if that is longer)
#   --refresh-strace  re-run strace on the selected tests (its results are
#                     otherwise cached in $SUITE/strace-status.txt)
#   --min-pass N      exit 1 when genba passes fewer than N tests
#   --results DIR     where to write summary.txt and the logs (default
#                     $SUITE/results/<date>; $SUITE/results/latest links it)
#   --keep-work       keep the test working directories
#
# Environment: GENBA (the genba binary; default target/release/genba, else
# target/debug/genba of this repository), GENBA_STRACE_SUITE_DIR (the suite's
# cache, default /var/cache/genba/strace-suite; scripts/strace-suite-setup.sh
# makes it).
#
# A family is the test name up to its first '-' (the test program, mostly one
# syscall or decoder: "accept4", "prctl", "strace" for the option tests), with
# the prefixes ioctl_, nlattr_, netlink_/nfnetlink_, trace_, sched_, ipc_,
# pidfd_ and rt_ gathered into one family each (ioctl_evdev-v -> ioctl).
#
# Each test runs as `make check` runs it (tests/run.sh NAME.gen.test, with
# $STRACE set) in a private copy of the tests directory (symbolic links), so
# the strace and genba runs and other runners do not share working
# directories. One change is made to that copy's run.sh: its framework probe
# `$STRACE -V` becomes `$GENBA trace -o /dev/null -- true` for genba runs
# (genba has no -V; the probe only asks whether the tracer runs at all).
# Every test runs in its own cgroup (v2) that is killed when the test ends or
# times out, so nothing is left behind; without cgroup v2 the process group
# is killed instead.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SUITE=${GENBA_STRACE_SUITE_DIR:-/var/cache/genba/strace-suite}
JOBS=2
TIMEOUT=60
STRACE_TIMEOUT=600
REFRESH=
MIN_PASS=
RESULTS=
KEEP=
SUBSET=
FAMILIES=()
NAMES=()

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --subset) SUBSET=$2; shift 2 ;;
        --family) FAMILIES+=("$2"); shift 2 ;;
        -j) JOBS=$2; shift 2 ;;
        -j*) JOBS=${1#-j}; shift ;;
        --timeout) TIMEOUT=$2; shift 2 ;;
        --refresh-strace) REFRESH=1; shift ;;
        --min-pass) MIN_PASS=$2; shift 2 ;;
        --results) RESULTS=$2; shift 2 ;;
        --keep-work) KEEP=1; shift ;;
        -h|--help) usage 0 ;;
        -*) echo "unknown option $1" >&2; usage 2 ;;
        *) NAMES+=("$1"); shift ;;
    esac
done

# ---- the suite and the tracers -------------------------------------------
if [ ! -f "$SUITE/.tests-built" ]; then
    bash "$ROOT/scripts/strace-suite-setup.sh" >&2 || exit 2
fi
SRC=$(ls -d "$SUITE"/strace-*/ 2>/dev/null | head -1); SRC=${SRC%/}
[ -f "$SRC/tests/run.sh" ] || { echo "no strace source under $SUITE" >&2; exit 2; }

if [ -z "${GENBA:-}" ]; then
    for g in "$ROOT/target/release/genba" "$ROOT/target/debug/genba"; do
        [ -x "$g" ] && { GENBA=$g; break; }
    done
fi
[ -n "${GENBA:-}" ] && [ -x "$GENBA" ] || { echo "no genba binary: build it or set GENBA" >&2; exit 2; }
GENBA=$(readlink -f "$GENBA")
export GENBA
ADAPTER=$ROOT/bench/strace-suite-adapter.sh
STRACE_BIN=$(command -v strace) || { echo "strace is not installed" >&2; exit 2; }

# ---- which tests ---------------------------------------------------------
family_of() {
    local n=${1%%-*}
    case "$n" in
        ioctl_*) echo ioctl ;; nlattr_*) echo nlattr ;;
        netlink_*|nfnetlink_*) echo netlink ;; trace_*) echo trace ;;
        sched_*) echo sched ;; ipc_*) echo ipc ;; pidfd_*) echo pidfd ;;
        rt_*) echo rt_sig ;; *) echo "$n" ;;
    esac
}

ALL=$(sed -n '/^GEN_TESTS = /,/[^\\]$/p' "$SRC/tests/Makefile" |
      tr ' \t\\' '\n\n\n' | sed -n 's/\.gen\.test$//p')
norm() { local n=${1##*/}; n=${n%.gen.test}; echo "${n%.test}"; }

SEL=()
if [ -n "$SUBSET" ]; then
    while read -r l; do
        l=${l%%#*}; l=$(echo "$l" | tr -d '[:space:]')
        [ -n "$l" ] && SEL+=("$(norm "$l")")
    done < "$SUBSET"
fi
for n in "${NAMES[@]}"; do SEL+=("$(norm "$n")"); done
if [ ${#FAMILIES[@]} -gt 0 ]; then
    for n in $ALL; do
        f=$(family_of "$n")
        for want in "${FAMILIES[@]}"; do [ "$f" = "$want" ] && SEL+=("$n"); done
    done
fi
if [ -z "$SUBSET" ] && [ ${#NAMES[@]} -eq 0 ] && [ ${#FAMILIES[@]} -eq 0 ]; then
    # shellcheck disable=SC2206
    SEL=($ALL)
fi
[ ${#SEL[@]} -gt 0 ] || { echo "no tests selected" >&2; exit 2; }
for n in "${SEL[@]}"; do
    [ -e "$SRC/tests/$n.gen.test" ] || [ -e "$SRC/tests/$n.test" ] ||
        { echo "no such test: $n" >&2; exit 2; }
done
mapfile -t SEL < <(printf '%s\n' "${SEL[@]}" | awk '!seen[$0]++')

# ---- results, working copies, cleanup ------------------------------------
STAMP=$(date +%Y%m%d-%H%M%S)
RESULTS=${RESULTS:-$SUITE/results/$STAMP}
mkdir -p "$RESULTS/strace" "$RESULTS/genba" || exit 2
RESULTS=$(cd "$RESULTS" && pwd)
if [[ "$RESULTS" == "$SUITE/results/"* ]]; then ln -sfn "$RESULTS" "$SUITE/results/latest"; fi
WORK=$RESULTS/work

CGROOT=
if [ -d /sys/fs/cgroup/unified ] || [ -f /sys/fs/cgroup/cgroup.procs ]; then
    base=/sys/fs/cgroup; [ -d /sys/fs/cgroup/unified ] && base=/sys/fs/cgroup/unified
    if mkdir "$base/genba-strace-suite.$$" 2>/dev/null; then
        CGROOT=$base/genba-strace-suite.$$
        [ -f "$CGROOT/cgroup.kill" ] || { rmdir "$CGROOT"; CGROOT=; }
    fi
fi

cg_kill() { # cgroup dir: kill everything in it, wait, remove it
    local cg=$1 i
    [ -d "$cg" ] || return 0
    for i in $(seq 50); do
        echo 1 > "$cg/cgroup.kill" 2>/dev/null
        [ -z "$(cat "$cg/cgroup.procs" 2>/dev/null)" ] && break
        sleep 0.1
    done
    rmdir "$cg" 2>/dev/null
}

cleanup() {
    local cg
    trap - EXIT INT TERM
    jobs -p | xargs -r kill 2>/dev/null
    if [ -n "$CGROOT" ]; then
        for cg in "$CGROOT"/*/; do [ -d "$cg" ] && cg_kill "${cg%/}"; done
        wait 2>/dev/null
        rmdir "$CGROOT" 2>/dev/null
    else
        wait 2>/dev/null
    fi
    [ -n "$KEEP" ] || rm -rf "$WORK"
}
trap cleanup EXIT
trap 'echo "interrupted" >&2; exit 130' INT TERM

make_work() { # mode: a copy of the source tree made of links, run.sh patched
    local w=$WORK/$1 e
    mkdir -p "$w"
    for e in "$SRC"/*; do
        [ "${e##*/}" = tests ] || ln -s "$e" "$w/${e##*/}"
    done
    mkdir "$w/tests"
    find "$SRC/tests" -mindepth 1 -maxdepth 1 ! -name '*.dir' -print0 | xargs -0 ln -s -t "$w/tests/"
    rm "$w/tests/run.sh"
    sed 's|^\$STRACE -V > /dev/null \|\||${STRACE_PROBE:-$STRACE -V} > /dev/null \|\||' \
        "$SRC/tests/run.sh" > "$w/tests/run.sh"
    chmod +x "$w/tests/run.sh"
    grep -q STRACE_PROBE "$w/tests/run.sh" || { echo "run.sh probe not found" >&2; exit 2; }
}

now() { date +%s.%N; }

# run_one MODE NAME LIMIT: runs one test, writes $RESULTS/MODE/NAME.{log,status}
run_one() {
    local mode=$1 name=$2 limit=$3 t cg= rc start secs status tracer probe
    t=$name.gen.test
    [ -e "$SRC/tests/$t" ] || t=$name.test
    if [ "$mode" = genba ]; then
        tracer=$ADAPTER; probe="$GENBA trace -o /dev/null -- true"
    else
        tracer=$STRACE_BIN; probe=
    fi
    if [ -n "$CGROOT" ]; then cg=$CGROOT/$mode.$name; mkdir -p "$cg"; fi
    start=$(now)
    (
        cd "$WORK/$mode/tests" || exit 99
        [ -n "$cg" ] && echo "$BASHPID" > "$cg/cgroup.procs"
        exec timeout -k 5 $((limit + 15)) env \
            STRACE_ARCH=x86_64 STRACE_NATIVE_ARCH=x86_64 SIZEOF_KERNEL_LONG_T=8 \
            SIZEOF_LONG=8 MIPS_ABI= srcdir=. STRACE="$tracer" STRACE_PROBE="$probe" \
            TIMEOUT_DURATION="$limit" ./run.sh "./$t"
    ) < /dev/null > "$RESULTS/$mode/$name.log" 2>&1
    rc=$?
    [ -n "$cg" ] && cg_kill "$cg"
    secs=$(awk -v a="$start" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}')
    case "$rc" in
        0) status=PASS ;;
        77) status=SKIP ;;
        99) status=ERROR ;;
        124|137|152) status=TIMEOUT ;;
        *) if grep -q 'time limit (.*) exceeded' "$RESULTS/$mode/$name.log"; then
               status=TIMEOUT; else status=FAIL; fi ;;
    esac
    if [ "$mode" = genba ] && [ "$status" != PASS ] && [ -d "$WORK/$mode/tests/$name.dir" ]; then
        for f in log exp out; do
            [ -f "$WORK/$mode/tests/$name.dir/$f" ] &&
                head -c 1000000 "$WORK/$mode/tests/$name.dir/$f" > "$RESULTS/$mode/$name.dir-$f"
        done
    fi
    [ -n "$KEEP" ] || rm -rf "$WORK/$mode/tests/$name.dir"
    echo "$name $status $rc $secs" > "$RESULTS/$mode/$name.status"
}

# run_all MODE LIMITFILE NAME...: a pool of $JOBS workers
run_all() {
    local mode=$1 limits=$2 n lim i=0 total
    shift 2
    total=$#
    make_work "$mode"
    for n in "$@"; do
        while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
        lim=$(awk -v n="$n" -v d="$TIMEOUT" '$1==n{t=$2} END{print (t?t:d)}' "$limits")
        run_one "$mode" "$n" "$lim" &
        i=$((i + 1))
        [ -t 2 ] && printf '\r%s: %d/%d %-40s' "$mode" "$i" "$total" "$n" >&2
    done
    wait
    [ -t 2 ] && printf '\r%-70s\r' '' >&2
    return 0
}

# ---- strace: which tests it passes (cached) --------------------------------
CACHE=$SUITE/strace-status.txt
KEY="$("$STRACE_BIN" -V | head -1) / $(uname -r)"
if [ -f "$CACHE" ] && [ "$(head -1 "$CACHE")" != "# $KEY" ]; then
    echo "strace or kernel changed since $CACHE was made: re-running strace" >&2
    mv "$CACHE" "$CACHE.old"
fi
[ -f "$CACHE" ] || echo "# $KEY" > "$CACHE"
if [ -n "$REFRESH" ]; then
    TODO=("${SEL[@]}")
else
    mapfile -t TODO < <(printf '%s\n' "${SEL[@]}" |
        awk 'NR==FNR{if (FNR>1) have[$1]=1; next} !have[$1]' "$CACHE" -)
fi
T0=$(now)
if [ ${#TODO[@]} -gt 0 ]; then
    echo "strace: running ${#TODO[@]} tests ($JOBS jobs)" >&2
    : > "$RESULTS/strace-limits"
    TIMEOUT_SAVE=$TIMEOUT; TIMEOUT=$STRACE_TIMEOUT
    run_all strace "$RESULTS/strace-limits" "${TODO[@]}"
    {
        head -1 "$CACHE"
        { for n in "${TODO[@]}"; do cat "$RESULTS/strace/$n.status" 2>/dev/null; done
          tail -n +2 "$CACHE"; } | awk '!seen[$1]++'
    } > "$CACHE.new" && mv "$CACHE.new" "$CACHE"
    TIMEOUT=$TIMEOUT_SAVE
fi
T1=$(now)
# strace's results for the selection, from the cache
printf '%s\n' "${SEL[@]}" | awk 'NR==FNR{st[$1]=$0; next} ($1 in st){print st[$1]}' \
    <(tail -n +2 "$CACHE") - > "$RESULTS/strace-status.txt"
mapfile -t PASSED < <(awk '$2=="PASS"{print $1}' "$RESULTS/strace-status.txt")

# ---- genba ---------------------------------------------------------------
# a test's limit: --timeout, or 3x what strace took if that is longer
awk -v d="$TIMEOUT" '$2=="PASS"{t=int($4*3+1); print $1, (t>d?t:d)}' \
    "$RESULTS/strace-status.txt" > "$RESULTS/genba-limits"
echo "genba: running ${#PASSED[@]} tests strace passes ($JOBS jobs, $GENBA)" >&2
if [ ${#PASSED[@]} -gt 0 ]; then
    run_all genba "$RESULTS/genba-limits" "${PASSED[@]}" 2>&1
fi
T2=$(now)
for n in "${PASSED[@]}"; do cat "$RESULTS/genba/$n.status"; done > "$RESULTS/genba-status.txt"

# ---- why each genba failure failed ----------------------------------------
# reason NAME: one line "KEY<TAB>DETAIL", KEY grouping similar failures
reason() {
    local name=$1 st=$2 log=$RESULTS/genba/$1.log
    case "$st" in
        TIMEOUT) printf 'timeout\ttimed out (limit %ss)\n' \
                     "$(awk -v n="$name" '$1==n{print $2}' "$RESULTS/genba-limits")"; return ;;
        SKIP) printf 'skipped under genba\t%s\n' "$(grep -m1 'skipped test' "$log")"; return ;;
        ERROR) printf 'framework error\t%s\n' "$(grep -m1 'framework' "$log")"; return ;;
    esac
    gawk -v adapter="$ADAPTER" '
        function key_of_line(l,   m) {
            if (l ~ /^\+\+\+ /) return "+++ exit line"
            if (l ~ /^--- /) return "--- signal line"
            if (l ~ /^genba: /) { gsub(/[0-9]+/, "N", l); return "\"" l "\"" }
            if (match(l, /^[0-9]+ +/)) l = substr(l, RLENGTH + 1)
            if (match(l, /^[a-z_0-9]+\(/)) return substr(l, 1, RLENGTH - 1)
            return "other"
        }
        { lines[NR] = $0 }
        /^error: |^genba: / && !/events lost/ && !gerr { gerr = $0 }
        /failed test: / { ftest = $0 }
        /^Failed patterns of expected output:/ { grepfail = NR }
        /^@@ / && !hunk { hunk = NR }
        END {
            if (ftest ~ /output mismatch/ && hunk) {
                ex = ""; got = ""; ne = 0; ng = 0
                for (i = hunk + 1; i <= NR; i++) {
                    l = lines[i]
                    if (l ~ /^@@ /) { if (ne || ng) break; continue }
                    c = substr(l, 1, 1)
                    if (c == "-") { if (!ne) ex = substr(l, 2); ne++ }
                    else if (c == "+") { if (!ng) got = substr(l, 2); ng++ }
                    else if (ne || ng) break
                }
                if (ne && ng) {
                    ke = key_of_line(ex); kg = key_of_line(got)
                    key = (ke == kg) ? "differs: " ke : "expected " ke ", got " kg
                } else if (ne) key = "missing: " key_of_line(ex)
                else key = "extra: " key_of_line(got)
                printf "%s\texpected: %s\t     got: %s\n", key, (ne ? ex : "(nothing)"), (ng ? got : "(nothing)")
            } else if (ftest ~ /output mismatch/ && grepfail) {
                printf "pattern not matched\texpected pattern: %s\n", lines[grepfail + 1]
            } else if (ftest ~ /output mismatch/) {
                printf "output mismatch (awk check)\t%s\n", ftest
            } else if (index(ftest, adapter) && ftest ~ /failed with code/) {
                if (gerr != "") {
                    k = gerr
                    sub(/ in -e .*/, "", k); sub(/^(genba|error): /, "", k)
                    printf "genba rejects: %s\t%s\n", k, gerr
                } else {
                    m = ftest; sub(/.*failed with code /, "", m)
                    printf "genba exited %s\t%s\n", m, ftest
                }
            } else if (ftest != "") {
                k = ftest; sub(/^[^:]*: failed test: /, "", k)
                gsub(/\.\.\/[^ ]*/, "PROG", k); gsub(/[0-9]+/, "N", k)
                printf "%s\t%s\n", substr(k, 1, 80), ftest
            } else printf "unknown\t(no failure message; see the log)\n"
        }' "$log"
}

# ---- summary ---------------------------------------------------------------
SUM=$RESULTS/summary.txt
NSEL=${#SEL[@]}
NSP=${#PASSED[@]}
NGP=$(awk '$2=="PASS"' "$RESULTS/genba-status.txt" | wc -l)
{
    echo "strace 6.1 test suite against genba"
    echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "genba:   $GENBA (${GENBA_REV:-built from? set GENBA_REV; $ROOT is at $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null)})"
    echo "strace:  $KEY"
    echo "tests:   $NSEL selected; strace: $(awk '{print $2}' "$RESULTS/strace-status.txt" | sort | uniq -c | awk '{printf "%s %s  ", $2, $1}')"
    echo "time:    strace $(awk -v a="$T0" -v b="$T1" 'BEGIN{printf "%.0f", b-a}') s (0 when cached), genba $(awk -v a="$T1" -v b="$T2" 'BEGIN{printf "%.0f", b-a}') s, $JOBS jobs"
    echo
    awk -v s="$NSP" -v g="$NGP" 'BEGIN{printf "genba passes %d of the %d tests strace passes (%.1f%%)\n", g, s, s ? 100*g/s : 0}'
    echo "genba: $(awk '{print $2}' "$RESULTS/genba-status.txt" | sort | uniq -c | awk '{printf "%s %s  ", $2, $1}')"
    echo
    echo "per family (tests strace passes; family = name up to the first '-', ioctl_/nlattr_/netlink_/trace_/sched_/ipc_/pidfd_/rt_ gathered):"
    printf '%-22s %7s %7s %6s\n' family strace genba '%'
    while read -r n st _; do
        echo "$(family_of "$n") $st"
    done < "$RESULTS/genba-status.txt" |
        awk '{t[$1]++; if ($2=="PASS") p[$1]++}
             END{for (f in t) printf "%-22s %7d %7d %5.0f%%\n", f, t[f], p[f], 100*p[f]/t[f]}' |
        sort -k2,2nr -k1,1
} > "$SUM"

: > "$RESULTS/failures.tsv"
while read -r n st rc secs; do
    [ "$st" = PASS ] && continue
    IFS=$'\t' read -r key detail detail2 < <(reason "$n" "$st")
    printf '%s\t%s\t%s\t%s\t%s\n' "$n" "$st" "$key" "$detail" "$detail2" >> "$RESULTS/failures.tsv"
done < "$RESULTS/genba-status.txt"

{
    echo
    echo "failure reasons, ranked (tests; the key groups by genba's error or by the first differing line's call):"
    cut -f3 "$RESULTS/failures.tsv" | sort | uniq -c | sort -k1,1nr -k2 | head -60
    echo
    echo "each genba failure (logs in $RESULTS/genba/NAME.log):"
    awk -F'\t' '{printf "%s [%s] %s\n    %s\n", $1, $2, $3, $4; if ($5 != "") printf "    %s\n", $5}' "$RESULTS/failures.tsv"
} >> "$SUM"

sed -n '1,/^failure reasons/p' "$SUM" | sed '$d' | sed -n '1,/^family /p'
sed -n '/^family /,/^$/p' "$SUM" | sed 1d | head -30
echo "failure reasons, top 15:"
cut -f3 "$RESULTS/failures.tsv" | sort | uniq -c | sort -k1,1nr -k2 | head -15
echo
echo "summary: $SUM"
awk -v s="$NSP" -v g="$NGP" 'BEGIN{printf "RESULT: genba passes %d/%d (%.1f%%)\n", g, s, s ? 100*g/s : 0}'

if [ -n "$MIN_PASS" ] && [ "$NGP" -lt "$MIN_PASS" ]; then
    echo "FAIL: $NGP passes < --min-pass $MIN_PASS" >&2
    exit 1
fi
exit 0
