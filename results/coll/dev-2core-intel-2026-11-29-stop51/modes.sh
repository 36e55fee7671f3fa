# usage: modes.sh LAUNCHES MIN MAX > raw ; 4 ranks, fused f16 2x2 rows: op kind size base one two auto
for i in $(seq $1); do for op in allreduce_allgather reducescatter_allreduce; do
 mpirun --allow-run-as-root --oversubscribe -np 4 ${BENCH:-build/benches/vsym-bench} fused --op $op --dtype f16 -b $2 -e $3 -f 2 -n 300 2>&1 | awk -v op=$op '/^# fused/{hdr=$0; t=(hdr ~ /local_tp 2 local_dp 2/); k=(hdr~/symmetric/)?"sym":"ord"} t && $1 ~ /^[0-9]+$/ {print op, k, $1, $3, $4, $5, $7}'
done; done
