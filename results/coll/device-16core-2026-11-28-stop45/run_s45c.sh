#!/bin/bash
# Device run 3 of stop 45: run_s45.sh's builds and two more, vsym-bench-rep (every pending peer
# per pass, missing lines prefetched, and a copy of each LL publication per reader up to
# XLLREP_LINES lines: each line then has one reader) and vsym-bench-reprr (the same without the
# prefetch), at 16 and 8 ranks bound to cores, orders turning: the all-reduce 16 B-64 KiB by 4
# (old rr new rep reprr), the broadcast 16 B-1 KiB by 4 (old new rep) and the fused pairs 64 B-16
# KiB by 4 (old new rep), f32; Open MPI's all-reduce and broadcast once a round. XLLREP_LINES=19
# (every LL size of these calls). OUT/$NAME.tgz; tables: ab_table.py DIR.
#   bash results/coll/device-16core-2026-11-28-stop45/run_s45c.sh  (carry build-dev)
NAME=${NAME:-s45c}
. "$(dirname "$0")/../device_step.sh"
device_setup $(pwd)/build-dev/vsym-bench-new
export XLLREP_LINES=${XLLREP_LINES:-19}
run() { # name np args...
  local name=$1 np=$2; shift 2
  step $name 90 mpirun --allow-run-as-root --bind-to core -x LD_LIBRARY_PATH -x XLLREP_LINES \
    -np $np "$@"
}
for round in $(seq 1 ${ROUNDS:-6}); do
  for np in ${NPS:-16 8}; do
    case $((round % 5)) in
    1) order="old rr new rep reprr" ;;
    2) order="reprr old rr new rep" ;;
    3) order="rep reprr old rr new" ;;
    4) order="new rep reprr old rr" ;;
    *) order="rr new rep reprr old" ;;
    esac
    for v in $order; do
      run ar.$v.np${np}r$round $np $D/vsym-bench-$v allreduce -b 16 -e 64K -f 4 --check \
        --json $R/ar.$v.np${np}r$round.jsonl
    done
    for v in $order; do
      case $v in rr | reprr) continue ;; esac
      run bc.$v.np${np}r$round $np $D/vsym-bench-$v broadcast -b 16 -e 1K -f 4 --check \
        --json $R/bc.$v.np${np}r$round.jsonl
      for op in allreduce_allgather reducescatter_allreduce; do
        run fu.$v.np${np}r$round.$op $np $D/vsym-bench-$v fused --op $op --dtype f32 \
          -b 64 -e 16K -f 4 --check --json $R/fu.$v.np${np}r$round.$op.jsonl
      done
    done
    run mpi.np${np}r$round $np $D/mpi-coll -b 16 -e 64K -f 4 --only allreduce \
      --json $R/mpi.np${np}r$round.jsonl
    run mpibc.np${np}r$round $np $D/mpi-coll -b 16 -e 1K -f 4 --only broadcast \
      --json $R/mpibc.np${np}r$round.jsonl
  done
done
(cd $OUT && tar czf $NAME.tgz $NAME && rm -rf $NAME)
