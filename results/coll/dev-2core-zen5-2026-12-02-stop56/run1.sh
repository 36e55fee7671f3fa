#!/bin/bash
# 2 ranks, symmetric buffers out of place, launches taking turns: the library's path (in place
# from 16 KiB on AMD, def) against the scratch (VSYM_COLL_ZEROCOPY_MIN=1G, zc0), the input
# rewritten before each call and the result read after it; each row keeps the cores' state
cd /work/main; D=results/coll/dev-2core-zen5-2026-12-02-stop56
for round in ${ROUNDS:-1 2 3 4 5 6 7 8}; do
  launch/vsym-run -n 2 -- build/benches/vsym-bench allreduce -b 4K -e 16M -f 4 --touch --consume --json $D/runs/r1_def_${round}.jsonl > /dev/null 2>&1
  VSYM_COLL_ZEROCOPY_MIN=1G launch/vsym-run -n 2 -- build/benches/vsym-bench allreduce -b 4K -e 16M -f 4 --touch --consume --json $D/runs/r1_zc0_${round}.jsonl > /dev/null 2>&1
done
echo done
