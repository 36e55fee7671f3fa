#!/bin/bash
# Device run (stop 20): the copy service at 8 and 16 ranks on the 16-core host, three binaries
# taking turns launch by launch: old (c001f30: contiguous pieces to a shared-memory peer went
# through vsym_put, streaming stores only from VSYM_NT_THRESHOLD per piece), new (stored through
# the peer's mapping, streaming by the bytes of this rank's tasks), node (streaming by the bytes
# of every task with an end on this node). ring and all-to-all, 8 and 64 MiB tasks, --check,
# two rounds. Run from the repository root with the binaries and libraries in build-dev/:
# build-dev/run.sh (OUT set by the device; everything is packed into OUT/run.tgz).
D=$(cd "$(dirname "$0")" && pwd); R=$OUT; mkdir -p $R/old $R/new $R/node
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench-node | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
nproc > $R/host.txt; lscpu | grep -E "Model name|L3" >> $R/host.txt; mpirun --version | head -1 >> $R/host.txt
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH" >> $R/host.txt; ldd $D/vsym-bench-node | grep -E "pmix|not found" >> $R/host.txt
# all-to-all at 16 ranks with 64 MiB tasks needs 960 MiB buffers (the default heap is 512 MiB)
export VSYM_HEAP_SIZE=3G
M="mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH -x VSYM_HEAP_SIZE -np"
for r in 1 2; do
  for np in 8 16; do
    for p in ring alltoall; do
      for v in old new node; do
        timeout 100 $M $np $D/vsym-bench-$v copy --pattern $p -b 8M -e 64M -f 8 --check \
          --json $R/$v/copy_${p}_np${np}_r$r.jsonl > $R/copy_${p}_np${np}_r$r.$v.txt 2>&1
        echo "exit $? $(date +%T) $v $p $np $r" >> $R/progress.txt
      done
    done
  done
done
(cd $R && tar czf run.tgz host.txt progress.txt old new node *.txt && rm -rf old new node copy_*.txt)
