#!/bin/bash
# VM (before the ring change): fetch-add-nbi, put-nbi and get-nbi 64K with several windows next to perftest.
O=$1; cd /work/main
B=build/benches/vsym-bench
export VSYM_TRANSPORT=verbs VSYM_HEAP_SIZE=64M VSYM_INTERNAL_SIZE=16M VSYM_DEVICE=rxe0
port=19600
pt() { # tag tool args...
  local tag=$1 tool=$2; shift 2
  port=$((port+1))
  $tool -d rxe0 -x 0 -p $port "$@" > $O/pt-$tag.srv 2>&1 &
  for i in $(seq 100); do grep -q ":$(printf %04X $port) .* 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null && break; sleep 0.05; done
  $tool -d rxe0 -x 0 -p $port "$@" 127.0.0.1 > $O/pt-$tag.txt 2>&1
  wait
}
vs() { local tag=$1; shift; launch/vsym-run -n 2 -- $B "$@" > $O/vs-$tag.txt 2>&1; }
for r in 1 2; do
  pt amo-r$r ib_atomic_bw -n 5000
  for w in 64 128 512; do vs amo-w$w-r$r atomic --op fetch-add-nbi -D 2 --window $w; done
  pt wr64k-r$r ib_write_bw -s 65536 -n 1024
  for w in 64 128; do vs wr64k-w$w-r$r put-nbi --mode bw -b 64K -e 64K -D 2 --window $w; done
  pt rd64k-r$r ib_read_bw -s 65536 -n 1024
  for w in 64 128; do vs rd64k-w$w-r$r get-nbi --mode bw -b 64K -e 64K -D 2 --window $w; done
done
echo done
