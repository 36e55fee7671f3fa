#!/bin/bash
# Device run of stop 50 (16-core Intel guest): vsym-bench at 61a3fa6 (old), with the
# non-temporal copy's prefetch on AMD only and the last-level cache counted at most 48 MiB a CPU
# (new, b11a7d3), and new with the copies out of symmetric buffers streamed on any CPU (xs, run
# with XS_ANY=1; xs_any.patch), in turns, ranks bound to cores, f32, --check, rounds FROM..TO:
#  1. the all-reduce at 2, 8, 16 ranks, 4-64 MiB by 4 (old, new, xs);
#  2. the all-gather, broadcast, reduce-scatter, all-to-all at 8 and 16 ranks, 4-64 MiB (same);
#  3. 2 ranks' all-reduce of ordinary buffers 256 KiB-64 MiB: new, new forced one-shot
#     (VSYM_COLL_ALGO=oneshot), Open MPI's MPI_Allreduce (mpi-coll);
#  4. 8 ranks' broadcast and all-gather 32 KiB-8 MiB, new against VSYM_COLL_STREAM_MIN=32K.
# build-dev holds vsym-bench.{old,new,xs}, mpi-coll, vsym-info and lib/ (libcpufreq, libjansson).
#   FROM=1 TO=2 bash results/coll/device-16core-2026-11-29-stop50/run_s50.sh  (carry build-dev)
NAME=${NAME:-s50_${FROM:-1}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
nproc > $R/nproc.txt
for i in 0 1 2 3; do
  for f in level size shared_cpu_list; do
    echo "index$i $f $(cat /sys/devices/system/cpu/cpu0/cache/index$i/$f 2>&1)"
  done
done > $R/caches.txt
$D/vsym-info --config > $R/vsym-info.txt 2>&1
run_v() { # variant np suite args...: one launch of the variant, records into $R
  local v=$1 np=$2 s=$3 tag=$3.np$2.r$round.$1; shift 3
  case $v in
    old|new) mpirun_step $tag $np $D/vsym-bench.$v $s "$@" --json $R/$tag.jsonl ;;
    xs) mpirun_step $tag $np -x XS_ANY=1 $D/vsym-bench.xs $s "$@" --json $R/$tag.jsonl ;;
    oneshot) mpirun_step $tag $np -x VSYM_COLL_ALGO=oneshot $D/vsym-bench.new $s "$@" \
      --json $R/$tag.jsonl ;;
    sm32k) mpirun_step $tag $np -x VSYM_COLL_STREAM_MIN=32K $D/vsym-bench.new $s "$@" \
      --json $R/$tag.jsonl ;;
    mpi) mpirun_step $tag $np $D/mpi-coll "$@" --only $s --json $R/$tag.jsonl ;;
  esac
}
for round in $(seq ${FROM:-1} ${TO:-2}); do
  case $((round % 3)) in 1) order="old new xs";; 2) order="new xs old";; *) order="xs old new";; esac
  for np in 2 8 16; do
    for v in $order; do run_v $v $np allreduce -b 4M -e 64M -f 4 -n 10 --check; done
  done
  for np in 8 16; do
    for s in allgather broadcast reduce-scatter alltoall; do
      for v in $order; do run_v $v $np $s -b 4M -e 64M -f 4 -n 10 --check; done
    done
  done
  for v in new oneshot mpi; do
    if [ $v = mpi ]; then run_v mpi 2 allreduce -b 256K -e 64M -f 4 -n 20
    else run_v $v 2 allreduce -b 256K -e 64M -f 4 -n 20 --check; fi
  done
  for s in broadcast allgather; do
    for v in new sm32k; do run_v $v 8 $s -b 32K -e 8M -f 4 -n 100 --check; done
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
