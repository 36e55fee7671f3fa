#!/bin/bash
# after the change (the out-of-place all-reduce between 2 ranks on AMD by the cores' state as
# ranks 0 and 1 agreed at the last round trip: in place from 16 KiB near, from 8 MiB far), new,
# against the rule before (in place from 16 KiB whatever the state: VSYM_COLL_ZEROCOPY_MIN=16K,
# old), launches taking turns, input rewritten and result read; each row keeps the cores' state
cd /work/main; D=results/coll/dev-2core-zen5-2026-12-02-stop56
for round in ${ROUNDS:-1 2 3 4 5 6 7 8}; do
  launch/vsym-run -n 2 -- build/benches/vsym-bench allreduce -b 16K -e 16M -f 4 --touch --consume --json $D/runs/r3_new_${round}.jsonl > /dev/null 2>&1
  VSYM_COLL_ZEROCOPY_MIN=16K launch/vsym-run -n 2 -- build/benches/vsym-bench allreduce -b 16K -e 16M -f 4 --touch --consume --json $D/runs/r3_old_${round}.jsonl > /dev/null 2>&1
done
echo done
