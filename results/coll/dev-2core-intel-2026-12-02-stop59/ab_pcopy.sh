# usage: ab_pcopy.sh ROUNDS > raw: the all-reduce of ordinary buffers, f32, 2 and 4 ranks, 512 KiB-64 MiB,
# plain and --touch --consume, the scratch paths (VSYM_COLL_PCOPY_MIN=0) and the process-to-process
# copies (VSYM_COLL_PCOPY_MIN=1: every size) in turns; rows: round np kind variant size oop_us ip_us
for i in $(seq $1); do for np in 2 4; do for k in plain tc; do for v in scratch pcopy; do
  o=""; [ $k = tc ] && o="--touch --consume"
  e="VSYM_COLL_PCOPY_MIN=0"; [ $v = pcopy ] && e="VSYM_COLL_PCOPY_MIN=1"
  env $e launch/vsym-run -n $np -- ${BENCH:-build/benches/vsym-bench} allreduce -b 512K -e 64M -f 2 $o 2>&1 |
    awk -v i=$i -v np=$np -v k=$k -v v=$v '/^# allreduce/{n++} n==1 && $1 ~ /^[0-9]+$/ {print i, np, k, v, $1, $3, $7}'
done; done; done; done
