#!/bin/bash
# The all-to-all of ordinary buffers through the scratch (below VSYM_COLL_PCOPY_MIN) with each
# rank's own block copied from its src to its dst and not published (after) against the build
# before (commit 75905dc, "old"), 2 and 4 ranks, 32 KiB-512 KiB (x4), five rounds taking turns.
# OLD and NEW name the two vsym-bench binaries; records in the current folder; tables with
# ../ag_own/tables.py.
#   OLD=... NEW=... bash results/coll/dev-2core-zen4-2026-11-27-stop30/at_own/run.sh
OLD=${OLD:-/tmp/vb_old}; NEW=${NEW:-$(pwd)/build/benches/vsym-bench}
M="mpirun --allow-run-as-root --oversubscribe"
for r in 1 2 3 4 5; do for np in 2 4; do
  $M -np $np $OLD alltoall -b 32K -e 512K -f 4 -n 200 --check --quiet --json old_np${np}_r$r.jsonl
  $M -np $np $NEW alltoall -b 32K -e 512K -f 4 -n 200 --check --quiet --json new3_np${np}_r$r.jsonl
done; done
python3 "$(dirname "$0")/../ag_own/tables.py" new3 > tables.txt
