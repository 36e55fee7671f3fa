#!/bin/bash
# Second device run of stop 50 (run_s50.sh's variants and binaries; its steps 3 and 4 had
# reused the tags of steps 1 and 2, so the all-reduce of 2 ranks and the all-gather and broadcast
# of 8 ranks kept only the later step's "new"). Rounds FROM..TO:
#  1. new against xs: the all-gather, broadcast and all-to-all at 8 and 16 ranks, 4-64 MiB by 4;
#  2. 2 ranks' all-reduce 256 KiB-64 MiB: new, new forced one-shot, Open MPI (tag ar2x);
#  3. old against new: the all-reduce and reduce-scatter at 8 and 16 ranks, 4-64 MiB by 4.
#   FROM=3 TO=4 bash results/coll/device-16core-2026-11-29-stop50/run_s50b.sh  (carry build-dev)
NAME=${NAME:-s50b_${FROM:-3}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
run_v() { # variant np suite tag args...
  local v=$1 np=$2 s=$3 tag=$4.np$2.r$round.$1; shift 4
  case $v in
    old|new) mpirun_step $tag $np $D/vsym-bench.$v $s "$@" --json $R/$tag.jsonl ;;
    xs) mpirun_step $tag $np -x XS_ANY=1 $D/vsym-bench.xs $s "$@" --json $R/$tag.jsonl ;;
    oneshot) mpirun_step $tag $np -x VSYM_COLL_ALGO=oneshot $D/vsym-bench.new $s "$@" \
      --json $R/$tag.jsonl ;;
    mpi) mpirun_step $tag $np $D/mpi-coll "$@" --only $s --json $R/$tag.jsonl ;;
  esac
}
for round in $(seq ${FROM:-3} ${TO:-4}); do
  if [ $((round % 2)) = 1 ]; then order="new xs"; o2="old new"; else order="xs new"; o2="new old"; fi
  for np in 8 16; do
    for s in allgather broadcast alltoall; do
      for v in $order; do run_v $v $np $s $s -b 4M -e 64M -f 4 -n 10 --check; done
    done
  done
  for v in new oneshot mpi; do
    if [ $v = mpi ]; then run_v mpi 2 allreduce ar2x -b 256K -e 64M -f 4 -n 20
    else run_v $v 2 allreduce ar2x -b 256K -e 64M -f 4 -n 20 --check; fi
  done
  for np in 8 16; do
    for s in allreduce reduce-scatter; do
      for v in $o2; do run_v $v $np $s $s -b 4M -e 64M -f 4 -n 10 --check; done
    done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
