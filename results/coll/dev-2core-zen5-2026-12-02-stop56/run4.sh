#!/bin/bash
# 4 ranks on the 2 cores, symmetric buffers out of place: the library's path (through the scratch
# below 4 MiB on AMD where ranks share cores, def) against reading them in place from 16 KiB
# (VSYM_COLL_ZEROCOPY_MIN=16K, zc16), launches taking turns, input rewritten and result read;
# each row keeps the cores' state (rank 0's thread probe): are stop 55's fast and slow launches
# of the in-place path the cores' two states?
cd /work/main; D=results/coll/dev-2core-zen5-2026-12-02-stop56
for round in ${ROUNDS:-1 2 3 4 5 6 7 8}; do
  launch/vsym-run -n 4 -- build/benches/vsym-bench allreduce -b 64K -e 4M -f 4 --touch --consume --json $D/runs/r4_def_${round}.jsonl > /dev/null 2>&1
  VSYM_COLL_ZEROCOPY_MIN=16K launch/vsym-run -n 4 -- build/benches/vsym-bench allreduce -b 64K -e 4M -f 4 --touch --consume --json $D/runs/r4_zc16_${round}.jsonl > /dev/null 2>&1
done
echo done
