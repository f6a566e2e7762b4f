#!/bin/sh
# $STRACE for strace 6.1's own test suite (bench/strace-suite.sh): runs
# `genba trace` with exactly the arguments the suite gives strace. Nothing is
# translated: an option genba lacks makes genba fail, and the test with it.
exec "${GENBA:?GENBA must name the genba binary}" trace "$@"
