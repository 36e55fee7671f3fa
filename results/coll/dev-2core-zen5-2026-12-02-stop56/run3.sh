#!/bin/bash
# after the change (the out-of-place all-reduce between 2 ranks on AMD by the cores' state as
# ranks 0 and 1 agreed at the last round trip: in place from 16 KiB near, from 8 MiB far), new,
# against the rule before (in place from 16 KiB whatever the state: VSYM_COLL_ZEROCOPY_MIN=16K,
# old), launches taking turns, input rewritten and result read; each row keeps the cores' state
exec "$(dirname "$0")/turns.sh" r3 2 "-b 16K -e 16M -f 4" new old VSYM_COLL_ZEROCOPY_MIN=16K
