# Reshard over verbs in the Soft-RoCE VM (ratios only), run from the build folder:
#   launch/vsym-softroce --nodes 2 --mem 4096 --timeout 1500 --rw OUT -- bash ../results/reshard/rows-2026-11-25/vm-run.sh OUT
O=$1; mkdir -p $O
R="../launch/vsym-run -n"
T="timeout 600"
( export VSYM_TRANSPORT=verbs
  $T $R 2 -- benches/vsym-bench reshard --model llama3-8b --from tp=2 --to tp=1,dp=2 --scale 1/32 --check -n 3 --json $O/reshard_np2.jsonl > $O/reshard_np2.txt 2>&1
)
( export VSYM_VIRTUAL_NODES=2
  $T $R 4 -- benches/vsym-bench reshard --model llama3-8b --from tp=4 --to tp=2,dp=2 --scale 1/32 --check -n 3 --json $O/reshard_2x2.jsonl > $O/reshard_2x2.txt 2>&1
)
echo done
