# fresh-table launches alternating OLD/NEW: build op kind size base one two auto ; + table entries
for i in $(seq ${ROUNDS:-6}); do
 if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
 for v in $order; do
  bin=$OLD; [ $v = new ] && bin=$NEW
  for op in allreduce_allgather reducescatter_allreduce; do
   rm -f /tmp/s51/ta_at.txt
   VSYM_AUTOTUNE_FILE=/tmp/s51/ta_at.txt mpirun --allow-run-as-root --oversubscribe -np 4 -x VSYM_AUTOTUNE_FILE $bin fused --op $op --dtype f16 ${SIZES:--b 16K -e 1M -f 4} -n 300 2>&1 | awk -v op=$op -v v=$v '/^# fused/{hdr=$0; t=(hdr ~ /local_tp 2 local_dp 2/); k=(hdr~/symmetric/)?"sym":"ord"} t && $1 ~ /^[0-9]+$/ {print v, op, k, $1, $3, $4, $5, $7}'
   awk -v v=$v -v op=$op '/^key/{k=($0~/local_tp=2 local_dp=2/); s=($0~/symmetric/)?"sym":"ord"} k && $2==op {print "T", v, s, $2, $3, $4}' /tmp/s51/ta_at.txt
  done
 done
done
