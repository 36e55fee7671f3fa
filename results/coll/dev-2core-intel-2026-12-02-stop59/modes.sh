# usage: modes.sh LAUNCHES MIN MAX [DTYPES] [extra vsym-bench options] > raw
# 4 ranks, fused 2x2 rows: op dtype kind size base one two auto
n=$1; lo=$2; hi=$3; dts=${4:-"f32 f16"}; shift 4 2>/dev/null || shift $#
for i in $(seq $n); do for dt in $dts; do for op in allreduce_allgather reducescatter_allreduce; do
 mpirun --allow-run-as-root --oversubscribe -np 4 ${BENCH:-build/benches/vsym-bench} fused --op $op \
  --dtype $dt -b $lo -e $hi -f 2 -n 300 "$@" 2>&1 | awk -v op=$op -v dt=$dt '/^# fused/{hdr=$0;
  t=(hdr ~ /local_tp 2 local_dp 2/); k=(hdr~/symmetric/)?"sym":"ord"}
  t && $1 ~ /^[0-9]+$/ {print op, dt, k, $1, $3, $4, $5, $7}'
done; done; done
