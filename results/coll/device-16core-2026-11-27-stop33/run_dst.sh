#!/bin/bash
# Device run of stop 33 (16-core Intel Xeon guest, no RDMA; binaries built on the 2-core host,
# carried in build-dev/): the collectives through the scratch storing into an out-of-place dst
# with non-temporal stores beyond the streaming threshold (150 MiB there: half its 300 MiB L3).
#  1. build-dev/inproc_ab (results/coll/dev-2core-zen4-2026-11-27-stop33/inproc_ab.c, linked
#     with 3f56173's libvsym.a): in one launch, blocks of calls taking turns between
#     VSYM_NT_THRESHOLD=0 (the code before) and auto, at 16 and 8 ranks bound to cores, for
#     sizes whose src and dst over the ranks pass the threshold;
#  2. build-dev/vsym-bench (3f56173) and vsym-bench-old (00a83e9), all-reduce and all-gather at
#     16 ranks, 16-64 MiB, taking turns twice, and Open MPI (mpi-coll) once.
# OUT/dst.tgz.   bash results/coll/device-16core-2026-11-27-stop33/run_dst.sh (carry build-dev)
D=$(pwd)/build-dev; R=$OUT/dst; mkdir -p $R
LIMIT=${LIMIT:-560}
export LD_LIBRARY_PATH=$D/lib
if ldd $D/inproc_ab | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
. "$(dirname "$0")/../device_step.sh"
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
lscpu > $R/lscpu.txt 2>&1
for np in 16 8; do
  for kc in "ar 16777216" "ar 67108864" "ag 4194304" "ag 16777216" "bc 16777216" "bc 67108864"; do
    set -- $kc
    step inproc_${1}_$(( $2 >> 20 ))M_np$np 60 $M -np $np $D/inproc_ab $1 $2 8 0
  done
  rsb=$(( np == 16 ? 1048576 : 4194304 ))
  for s in $rsb $(( rsb * 4 )); do
    step inproc_rs_$(( s >> 20 ))M_np$np 60 $M -np $np $D/inproc_ab rs $s 8 0
  done
done
for round in 1 2; do
  for v in old new; do
    B=$D/vsym-bench; [ $v = old ] && B=$D/vsym-bench-old
    for c in allreduce allgather; do
      step bench_${c}_np16_${v}_r$round 90 $M -np 16 $B $c -b 16M -e 64M -f 4 -n 10 --check \
        --json $R/bench_${c}_np16_${v}_r$round.jsonl
    done
  done
done
step mpi_np16 90 $M -np 16 $D/mpi-coll -b 16M -e 64M -f 4 -n 10 --json $R/mpi_np16.jsonl
(cd $OUT && tar czf dst.tgz dst && rm -rf dst)
