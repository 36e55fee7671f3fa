#!/bin/bash
# Local run (2-core machine): three interleaved rounds of reshard, this build (strided slices as
# copy-service rows, local ops inside the copy service, destinations in the symmetric heap) next
# to an older build (OLD: vsym-bench of aeb2b7c: slices packed and unpacked, malloc'd
# destinations); and the copy-service ring at 2 ranks with VSYM_NT_THRESHOLD=auto and 0.
#   results/reshard/rows-2026-11-25/run-local.sh NEW_VSYM_BENCH OLD_VSYM_BENCH OUT_DIR
set -u
NEW=$1; OLD=$2; R=$3; mkdir -p "$R"
here=$(cd "$(dirname "$0")" && pwd); run=$here/../../../launch/vsym-run
for round in 1 2 3; do
  for c in "2 --from tp=2 --to tp=1,dp=2" "4 --from tp=2,pp=2 --to tp=4" "4 --from tp=4 --to tp=2,dp=2"; do
    set -- $c; np=$1; shift; tag=np${np}_$(echo "$2" | tr -d '=,')
    for v in new old; do
      bin=$NEW; [ $v = old ] && bin=$OLD
      $run -n $np -- $bin reshard --model llama3-8b "$@" --scale 1/16 --check -n 10 \
        --json $R/reshard_${v}_${tag}_r$round.jsonl > $R/reshard_${v}_${tag}_r$round.txt 2>&1
    done
  done
  for nt in auto 0; do
    VSYM_NT_THRESHOLD=$nt $run -n 2 -- $NEW copy --pattern ring -b 1M -e 64M -f 8 --check \
      --json $R/copy_ring_np2_nt${nt}_r$round.jsonl > $R/copy_ring_np2_nt${nt}_r$round.txt 2>&1
  done
done
