#!/bin/bash
# Diagnostic (not kept): 2 ranks across 2 pretend nodes, all-reduce 8K-256K, symmetric and
# ordinary buffers, the exchange sending symmetric buffers in place (A) or staged (B).
set -u
B=$(cd "$1" && pwd); O=$(cd "$2" && pwd)
cd "$(dirname "$0")"
export VSYM_HEAP_SIZE=64M VSYM_INTERNAL_SIZE=16M VSYM_VIRTUAL_NODES=2
for round in 1 2 3; do
  for v in A B; do
    e=(); [ $v = B ] && e=(DIAG_XCH_STAGED=1)
    timeout 600 env "${e[@]}" launch/vsym-run -n 2 -- "$B/benches/vsym-bench" allreduce -b 8K -e 256K -f 4 -n 20 --check \
      > "$O/np2_${v}_r$round.txt" 2>&1; echo "np2 $v r$round: $?"
  done
done
for round in 1 2; do
  timeout 600 launch/vsym-run -n 4 -- "$B/benches/vsym-bench" allreduce -b 128K -e 1M -f 8 -n 10 --check > "$O/np4_big_r$round.txt" 2>&1; echo "np4 big r$round: $?"
  timeout 600 launch/vsym-run -n 4 -- "$B/benches/vsym-bench" allreduce -s 128K -n 10 --check > "$O/np4_small_r$round.txt" 2>&1; echo "np4 small r$round: $?"
done
echo done
