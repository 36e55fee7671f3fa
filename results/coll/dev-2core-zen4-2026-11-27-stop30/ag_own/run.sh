#!/bin/bash
# The all-gather of ordinary buffers with each rank's own block copied from its src instead of
# back out of its scratch (after) against the build before (commit 75905dc, "old"), next to Open
# MPI, 2 and 4 ranks, 8 KiB-32 MiB (x4), three rounds taking turns. OLD and NEW name the two
# vsym-bench binaries (default: /tmp/vb_old and build/benches/vsym-bench); records in the
# current folder, tables with tables.py (python3 tables.py new2 after renaming, or as written).
#   OLD=... NEW=... bash results/coll/dev-2core-zen4-2026-11-27-stop30/ag_own/run.sh
OLD=${OLD:-/tmp/vb_old}; NEW=${NEW:-$(pwd)/build/benches/vsym-bench}
MPI=${MPI:-$(pwd)/build/benches/peers/mpi-coll}
M="mpirun --allow-run-as-root --oversubscribe"
for r in 1 2 3; do for np in 2 4; do
  $M -np $np $OLD allgather -b 8K -e 32M -f 4 -n 40 --check --quiet --json old_np${np}_r$r.jsonl
  $M -np $np $NEW allgather -b 8K -e 32M -f 4 -n 40 --check --quiet --json new2_np${np}_r$r.jsonl
  $M -np $np $MPI -b 8K -e 32M -f 4 -n 40 --only allgather --json mpi_np${np}_r$r.jsonl > /dev/null
done; done
python3 "$(dirname "$0")/tables.py" new2 > tables.txt
