#!/bin/bash
# Device run of stop 52 (16-core Intel guest): the all-reduce, f32, 8 B-32 MiB by 4, at 16, 8 and
# 2 ranks bound to cores, with the benchmarks before (e168542: vsym-bench's ordinary buffers and
# mpi-coll's calloc'd ones left as the kernel's zero page where nothing had written them) and
# after (582aeba: every byte 0x3c first; benches/inputs.h), the library the same in both: per
# round and rank count vsym-bench.old, vsym-bench.new (both --check, as the main job runs them),
# mpi-coll.old, mpi-coll.new, the order rotating per round.
# build-dev holds vsym-bench.{old,new}, mpi-coll.{old,new}, vsym-info and lib/ (libcpufreq,
# libjansson).   FROM=1 TO=3 bash results/coll/device-16core-2026-11-29-stop52/run_s52.sh
NAME=${NAME:-s52_${FROM:-1}}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench.new
nproc > $R/nproc.txt
$D/vsym-info --config > $R/vsym-info.txt 2>&1
run_v() { # variant np: one launch, records into $R
  local v=$1 np=$2 tag=ar.np$2.r$round.$1
  case $v in
    old|new) mpirun_step $tag $np $D/vsym-bench.$v allreduce -b 8 -e 32M -f 4 --check \
      --json $R/$tag.jsonl ;;
    mpiold|mpinew) mpirun_step $tag $np $D/mpi-coll.${v#mpi} -b 8 -e 32M -f 4 --only allreduce \
      --json $R/$tag.jsonl ;;
  esac
}
for round in $(seq ${FROM:-1} ${TO:-3}); do
  case $((round % 2)) in 1) order="old new mpiold mpinew";; *) order="mpinew mpiold new old";; esac
  for np in 16 8 2; do
    for v in $order; do run_v $v $np; done
  done
done
(cd $OUT && tar cJf $NAME.txz $NAME && rm -rf $NAME)
