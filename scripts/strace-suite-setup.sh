#!/bin/bash
# Fetches and builds strace 6.1's own test suite (the test programs only, not
# strace), the conformance specification bench/strace-suite.sh runs genba
# against. Idempotent: each step is skipped when already done.
#
#   bash scripts/strace-suite-setup.sh
#
# Where: $GENBA_STRACE_SUITE_DIR (default /var/cache/genba/strace-suite).
# Needs root (apt). Prints the source tree's path on its last line.
set -euo pipefail

DIR=${GENBA_STRACE_SUITE_DIR:-/var/cache/genba/strace-suite}
mkdir -p "$DIR"

# The installed strace's version: the suite must be the one of the strace it
# is compared with.
if ! command -v strace >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq strace >/dev/null
fi
VER=$(dpkg-query -W -f='${Version}' strace)
UPVER=${VER%%-*}; UPVER=${UPVER#*:}

# 1. A deb-src entry for the suites the deb entries use, same mirrors.
SRCFILE=/etc/apt/sources.list.d/genba-strace-src.sources
if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    uris=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
    if [ -z "$uris" ]; then
        uris=$(awk '$1=="deb" && $3 !~ /security|updates/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
    fi
    uris=${uris:-http://deb.debian.org/debian}
    suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    cat > "$SRCFILE" <<EOF
Types: deb-src
URIs: $uris
Suites: $suite $suite-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    echo "added $SRCFILE"
    NEED_UPDATE=1
fi

# 2. Packages: dpkg-dev for apt-get source, gawk and libbluetooth-dev for the
# tests' configure, gcc/make to build them.
missing=()
for p in dpkg-dev gawk libbluetooth-dev gcc make; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ] || [ -n "${NEED_UPDATE:-}" ]; then
    apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# 3. The source package of the installed version.
SRC="$DIR/strace-$UPVER"
if [ ! -f "$SRC/tests/gen_tests.in" ]; then
    (cd "$DIR" && apt-get source -qq "strace=$VER" >/dev/null 2>&1) ||
        (cd "$DIR" && apt-get source -qq strace)
    [ -f "$SRC/tests/gen_tests.in" ] || { echo "no $SRC/tests/gen_tests.in after apt-get source" >&2; exit 1; }
fi

# 4. configure, then the test programs (make check with no TESTS builds them
# all and runs none; strace itself is not built).
cd "$SRC"
if [ ! -f config.status ]; then
    echo "configuring in $SRC"
    ./configure --enable-mpers=no --disable-dependency-tracking > "$DIR/configure.log" 2>&1 ||
        { tail -20 "$DIR/configure.log" >&2; exit 1; }
fi
if [ ! -f "$DIR/.tests-built" ]; then
    echo "building the test programs (about 5 minutes on 2 CPUs)"
    make -C tests -j"$(nproc)" check TESTS= > "$DIR/build.log" 2>&1 ||
        { tail -30 "$DIR/build.log" >&2; exit 1; }
    touch "$DIR/.tests-built"
fi
echo "$SRC"
