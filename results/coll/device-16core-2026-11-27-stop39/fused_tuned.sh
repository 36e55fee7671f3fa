# Sourced by run_s39_tune.sh and run_s39b.sh (after device_step.sh's device_setup):
# fused_tuned_rounds A B runs ROUNDS rounds (default 3) of vsym-bench fused at 64 B-64 KiB by 4
# with NPS ranks (default 4 8 16) bound to cores, builds build-dev/vsym-bench-A and -B in turns
# (A first in odd rounds), each launch with a fresh autotune table ($R/at_BUILD_npN_rK.txt).
fused_tuned_rounds() {
  local a=$1 b=$2 round np v order
  for round in ${ROUNDS:-$(seq 1 3)}; do
    for np in ${NPS:-4 8 16}; do
      if [ $((round % 2)) = 1 ]; then order="$a $b"; else order="$b $a"; fi
      for v in $order; do
        export VSYM_AUTOTUNE_FILE=$R/at_${v}_np${np}_r$round.txt
        step fused_np${np}_${v}_r$round 120 mpirun --allow-run-as-root --bind-to core \
          -x LD_LIBRARY_PATH -x VSYM_AUTOTUNE_FILE -np $np $D/vsym-bench-$v fused -b 64 \
          -e 64K -f 4 --json $R/fused_np${np}_${v}_r$round.jsonl
      done
    done
  done
}
