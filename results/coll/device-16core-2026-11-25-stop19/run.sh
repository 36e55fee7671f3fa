#!/bin/bash
# Device run 2 (stop 19; run 1 used the bootstrap PMIx exchange in vsym_team_exchange, 1-7 ms
# each and growing): the fused TP x DP pairs with the autotune comparing each fused mode with
# the baseline round by round (median of five per-round ratios, lib/coll/autotune.c
# vsym_coll_tune_pick) and vsym-bench fused reporting each mode's speed-up as the median of five
# paired rounds. Every TP x DP split of 4, 8 and 16 ranks, f32, 64 B - 1 MiB: PART=rule: AUTO
# without a table (--check); PART=tuned: a fresh autotune table per rank count
# (VSYM_AUTOTUNE_FILE; the first fused run of each tunes every split and op), then both ops with
# AUTO from the table. Run from the repository root with the binaries and libraries in build-dev/:
# PART=rule build-dev/run.sh (OUT set by the device).
D=$(cd "$(dirname "$0")" && pwd); R=$OUT/$PART; mkdir -p $R
export LD_LIBRARY_PATH=$D/lib
if ldd $D/vsym-bench | grep -q "not found"; then export LD_LIBRARY_PATH=$D/lib:$D/lib-pmix; fi
M="mpirun --allow-run-as-root -np"
MB="--bind-to core -x LD_LIBRARY_PATH -x VSYM_AUTOTUNE_FILE"
pack() { (cd $OUT && tar czf $PART.tgz $PART); }
t() { local lim=$1; shift; timeout $lim "$@"; echo "exit $? $(date +%T): ${*: -6}" >> $R/progress.txt; }
nproc > $R/host.txt; lscpu | grep -E "Model name|L3" >> $R/host.txt; mpirun --version | head -1 >> $R/host.txt
S="-b 64 -e 1M -f 4 -n 200 -w 20"
if [ "$PART" = rule ]; then
  export VSYM_AUTOTUNE_FILE=
  for np in 4 8 16; do
    lim=30; [ $np = 8 ] && lim=50; [ $np = 16 ] && lim=110
    for op in reducescatter_allreduce allreduce_allgather; do
      t $lim $M $np $MB $D/vsym-bench fused --dtype f32 --op $op $S --check --json $R/${op}_np$np.jsonl > $R/${op}_np$np.txt 2>&1
    done
    pack
  done
else
  for np in ${NPS:-4 8 16}; do
    export VSYM_AUTOTUNE_FILE=$R/tune_np$np.txt
    lim=60; [ $np = 8 ] && lim=100; [ $np = 16 ] && lim=150
    for op in reducescatter_allreduce allreduce_allgather; do
      t $lim $M $np $MB $D/vsym-bench fused --dtype f32 --op $op $S --json $R/${op}_tuned_np$np.jsonl > $R/${op}_tuned_np$np.txt 2>&1
      lim=120
    done
    pack
  done
fi
