#!/usr/bin/env bash
# Stop 62: the copy service's streaming rule, this rank's bytes per run against a single copy's
# threshold (e97e4f0, vsym-bench), against the one before it, the collectives' threshold
# (5463240, vsym-bench.old): vsym-bench copy, ring and all-to-all, 2, 8 and 16 ranks, 16-64 MiB,
# the two builds taking turns, two rounds (a symmetric heap of 2 GiB: 16 ranks' all-to-all of 64
# MiB stages more than the default 512 MiB). Run from the repository root with build-dev carried;
# everything ends up in $OUT/copy_s62.tgz.
NAME=copy_s62
source results/coll/device_step.sh
device_setup build-dev/vsym-bench
step info 30 $D/vsym-info
for round in 1 2; do
  for np in 2 4 8 16; do
    for pat in ring alltoall; do
      for b in new old; do
        bin=$D/vsym-bench
        [ $b = old ] && bin=$D/vsym-bench.old
        n=r${round}_np${np}_${pat}_$b
        mpirun_step $n $np -x VSYM_HEAP_SIZE=2G $bin copy --pattern $pat -b 16M -e 64M -f 2 -n 5 --json $R/$n.jsonl
      done
    done
  done
done
tar -C $OUT -czf $OUT/copy_s62.tgz copy_s62 && rm -rf $R
