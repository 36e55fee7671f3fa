#!/bin/bash
# VM: fetch-add-nbi (ring of 256, first-signalled ring wait) with windows 64/256/1024 next to ib_atomic_bw, 3 rounds.
O=$1; cd /work/main
B=build/benches/vsym-bench
export VSYM_TRANSPORT=verbs VSYM_HEAP_SIZE=64M VSYM_INTERNAL_SIZE=16M VSYM_DEVICE=rxe0
port=19700
pt() { local tag=$1 tool=$2; shift 2; port=$((port+1))
  $tool -d rxe0 -x 0 -p $port "$@" > $O/pt-$tag.srv 2>&1 &
  for i in $(seq 100); do grep -q ":$(printf %04X $port) .* 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null && break; sleep 0.05; done
  $tool -d rxe0 -x 0 -p $port "$@" 127.0.0.1 > $O/pt-$tag.txt 2>&1; wait; }
vs() { local tag=$1; shift; launch/vsym-run -n 2 -- $B "$@" > $O/vs-$tag.txt 2>&1; }
for r in 1 2 3; do
  pt amo-r$r ib_atomic_bw -n 5000
  for w in 64 256 1024; do vs amo-w$w-r$r atomic --op fetch-add-nbi -D 3 --window $w --check; done
done
echo done
