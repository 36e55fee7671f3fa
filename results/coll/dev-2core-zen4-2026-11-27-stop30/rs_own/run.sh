#!/bin/bash
# The reduce-scatter of ordinary buffers through the scratch with each rank's own block read
# from its src and not published (after, where dst lies apart from src) against the build
# before (commit d72fd24, "old"), next to Open MPI, 2 and 4 ranks, 8 KiB-8 MiB (x4), three
# rounds taking turns. OLD and NEW name the two vsym-bench binaries; records in the current
# folder; tables with ../ag_own/tables.py.
#   OLD=... NEW=... bash results/coll/dev-2core-zen4-2026-11-27-stop30/rs_own/run.sh
OLD=${OLD:-/tmp/vb_old}; NEW=${NEW:-$(pwd)/build/benches/vsym-bench}
MPI=${MPI:-$(pwd)/build/benches/peers/mpi-coll}
M="mpirun --allow-run-as-root --oversubscribe"
for r in 1 2 3; do for np in 2 4; do
  $M -np $np $OLD reduce-scatter -b 8K -e 8M -f 4 -n 60 --check --quiet --json old_np${np}_r$r.jsonl
  $M -np $np $NEW reduce-scatter -b 8K -e 8M -f 4 -n 60 --check --quiet --json rs_np${np}_r$r.jsonl
  $M -np $np $MPI -b 8K -e 8M -f 4 -n 60 --only reduce-scatter --json mpi_np${np}_r$r.jsonl >/dev/null
done; done
python3 "$(dirname "$0")/../ag_own/tables.py" rs > tables.txt
