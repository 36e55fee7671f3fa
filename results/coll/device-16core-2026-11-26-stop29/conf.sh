#!/bin/bash
# Second device run of stop 29 (after 3b45b71): every multi-rank conformance binary at 16 ranks on
# the 16-core guest (one rank per core), core_no_pcopy included (its seccomp filter fails
# process_vm_readv/writev in every rank: the probe, a rendezvous' get, the all-to-all and the copy
# service checked there), then copy_random and core_no_pcopy at 7 ranks. Output: OUT/conf.tgz.
#   bash results/coll/device-16core-2026-11-26-stop29/conf.sh   (on the device, carry build-dev)
# (The run of record timed each test with bc, which the guest lacks: its progress.txt has exit
# statuses and no times; the whole run took 23 s.)
D=$(pwd)/build-dev; R=$OUT/conf; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH"
for t in core_smoke core_rma core_atomics core_signal core_teams core_heap core_errors \
         core_no_pcopy copy_errors copy_random reshard_exec coll_fused coll_ops; do
  s=$SECONDS
  timeout 150 $M -np 16 $D/conf/$t > $R/${t}_np16.txt 2>&1
  echo "exit $? $t np 16 $((SECONDS - s)) s" >> $R/progress.txt
done
for t in copy_random core_no_pcopy; do
  timeout 120 $M -np 7 $D/conf/$t > $R/${t}_np7.txt 2>&1
  echo "exit $? $t np 7" >> $R/progress.txt
done
(cd $OUT && tar czf conf.tgz conf && rm -rf conf)
