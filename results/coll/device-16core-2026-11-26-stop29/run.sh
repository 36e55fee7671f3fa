#!/bin/bash
# Device run of stop 29 on the 16-core host (binaries and libraries in build-dev/, OUT set by the
# device; everything packed into OUT/pcopy.tgz): the all-to-all of ordinary buffers that reads
# the peers' src with process-to-process copies (VSYM_COLL_PCOPY_MIN=64K) against the scratch's
# two copies (VSYM_COLL_PCOPY_MIN=0) and Open MPI's MPI_Alltoall, 2, 8 and 16 ranks bound to
# cores, 64 KiB-16 MiB of src (x4), --check on the vsym rows, ROUNDS rounds, the three taking
# turns; before them the kernel's copy against memcpy in one process pair (cma_probe.c, built
# here as build-dev/cma_probe) and Yama's setting; after them the conformance binaries that
# check the path (coll_ops, whose world suite runs the all-to-all through it from 1 KiB, and
# core_heap, which checks vsym_team_process_copy against a rendezvous' puts and gets) at 16
# ranks.
#   bash results/coll/device-16core-2026-11-26-stop29/run.sh   (on the device, carry build-dev)
D=$(pwd)/build-dev; R=$OUT/pcopy; mkdir -p $R
ROUNDS=${ROUNDS:-1 2}; NPS=${NPS:-2 8 16}; LIMIT=${LIMIT:-420}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
nproc > $R/host.txt; lscpu | grep -E "Model name|L3|NUMA" >> $R/host.txt
mpirun --version | head -1 >> $R/host.txt
echo "yama ptrace_scope: $(cat /proc/sys/kernel/yama/ptrace_scope 2>&1)" >> $R/host.txt
ldd $D/vsym-bench $D/mpi-coll | grep -E "pmix|mpi|not found" >> $R/host.txt
for s in 1048576 4194304 16777216; do $D/cma_probe $s >> $R/cma_probe.txt 2>&1; done
start=$(date +%s)
left() { echo $(( LIMIT - ($(date +%s) - start) )); }
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
S="-b 64K -e 16M -f 4 -n 20"
for r in $ROUNDS; do
  for np in $NPS; do
    t=$(left); [ $t -lt 40 ] && { echo "skip np $np r$r: $t s left" >> $R/progress.txt; continue; }
    timeout 60 $M -x VSYM_COLL_PCOPY_MIN=64K -np $np $D/vsym-bench alltoall $S --check \
      --json $R/pcopy_np${np}_r$r.jsonl > $R/pcopy_np${np}_r$r.txt 2>&1
    echo "exit $? $(date +%T) pcopy np $np r$r" >> $R/progress.txt
    timeout 60 $M -x VSYM_COLL_PCOPY_MIN=0 -np $np $D/vsym-bench alltoall $S --check \
      --json $R/scratch_np${np}_r$r.jsonl > $R/scratch_np${np}_r$r.txt 2>&1
    echo "exit $? $(date +%T) scratch np $np r$r" >> $R/progress.txt
    timeout 60 $M -np $np $D/mpi-coll $S --only alltoall --json $R/mpi_np${np}_r$r.jsonl \
      > $R/mpi_np${np}_r$r.txt 2>&1
    echo "exit $? $(date +%T) mpi np $np r$r" >> $R/progress.txt
  done
done
for t in core_heap coll_ops; do
  timeout 120 $M --oversubscribe -np 16 $D/conf/$t > $R/conf_${t}_np16.txt 2>&1
  echo "exit $? $(date +%T) $t np 16" >> $R/progress.txt
done
(cd $OUT && tar czf pcopy.tgz pcopy && rm -rf pcopy)
