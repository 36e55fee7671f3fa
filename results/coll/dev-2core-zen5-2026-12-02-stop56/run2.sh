#!/bin/bash
# run 1 by 2 from 16 KiB: 2 ranks, symmetric buffers out of place, launches taking turns: the
# library's path (in place from 16 KiB on AMD, def) against the scratch
# (VSYM_COLL_ZEROCOPY_MIN=1G, zc0), the input rewritten before each call and the result read
# after it; each row keeps the cores' state
exec "$(dirname "$0")/turns.sh" r2 2 "-b 16K -e 16M -f 2" def zc0 VSYM_COLL_ZEROCOPY_MIN=1G
