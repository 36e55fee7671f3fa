#!/bin/bash
# 4 ranks on the 2 cores, symmetric buffers out of place: the library's path (through the scratch
# below 4 MiB on AMD where ranks share cores, def) against reading them in place from 16 KiB
# (VSYM_COLL_ZEROCOPY_MIN=16K, zc16), launches taking turns, input rewritten and result read;
# each row keeps the cores' state (rank 0's thread probe): are stop 55's fast and slow launches
# of the in-place path the cores' two states?
exec "$(dirname "$0")/turns.sh" r4 4 "-b 64K -e 4M -f 4" def zc16 VSYM_COLL_ZEROCOPY_MIN=16K
