#!/usr/bin/env python3
# Fixes what scripts/gen-xlat.py cannot take from strace's lists for
# crates/genba-syscalls/src/ioctl_small_xlat.rs (run after it):
#  - 1<<_UFFDIO_API: the compiler takes the shift as an int, bit 63 is lost;
#  - modem_flags: the list's __mips__ branch (gen-xlat.py keeps both of an
#    #ifdef's branches), dropped for x86_64.
import re, sys
p = sys.argv[1] if len(sys.argv) > 1 else 'crates/genba-syscalls/src/ioctl_small_xlat.rs'
s = open(p).read()
s = s.replace('(0x0, "1<<_UFFDIO_API")', '(0x8000000000000000, "1<<_UFFDIO_API")')
mips = ['(0x10, "TIOCM_ST")', '(0x20, "TIOCM_SR")', '(0x40, "TIOCM_CTS")',
        '(0x100, "TIOCM_CAR")', '(0x200, "TIOCM_RNG")', '(0x400, "TIOCM_DSR")']
head, rest = s.split('pub(super) static MODEM_FLAGS', 1)
block, tail = rest.split('];', 1)
for m in mips:
    block = block.replace('    ' + m + ',\n', '', 1)
open(p, 'w').write(head + 'pub(super) static MODEM_FLAGS' + block + '];' + tail)
