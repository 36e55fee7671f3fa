# Benchmarks over verbs in the Soft-RoCE VM (ratios only): the copy service, reshard, all-reduce
# algorithms and fused collectives on 2 pretend nodes x 2 ranks.
O=vc/vm; mkdir -p $O
R="../launch/vsym-run -n"
T="timeout 500"
export VSYM_HEAP_SIZE=64M VSYM_INTERNAL_SIZE=16M
( export VSYM_TRANSPORT=verbs
  $T $R 2 -- benches/vsym-bench copy --pattern ring -b 64K -e 4M -f 64 -n 10 --check --json $O/copy_ring_np2.jsonl > $O/copy_ring_np2.txt 2>&1
)
( export VSYM_VIRTUAL_NODES=2
  $T $R 4 -- benches/vsym-bench copy --pattern alltoall -b 1M -e 1M -n 5 --check --json $O/copy_alltoall_2x2.jsonl > $O/copy_alltoall_2x2.txt 2>&1
  $T $R 4 -- benches/vsym-bench reshard --model llama3-8b --from tp=4 --to tp=2,dp=2 --scale 1/32 --check -n 3 --json $O/reshard_2x2.jsonl > $O/reshard_2x2.txt 2>&1
  for a in auto ring hier; do
    $T $R 4 -- benches/vsym-bench allreduce --algo $a -b 1K -e 1M -f 32 -n 20 --check --json $O/ar_${a}_2x2.jsonl > $O/ar_${a}_2x2.txt 2>&1
  done
  $T $R 4 -- benches/vsym-bench fused --dtype f32 -b 1K -e 64K -f 64 -n 20 --check --json $O/fused_f32_2x2.jsonl > $O/fused_f32_2x2.txt 2>&1
)
echo done
