# usage: binab.sh ROUNDS SUITE NP ; OLD vs NEW binaries taking turns; prints build size time_us
R=$1; S=$2; NP=$3
for r in $(seq $R); do
 if [ $((r % 2)) = 1 ]; then order="old new"; else order="new old"; fi
 for v in $order; do
  bin=$OLD; [ $v = new ] && bin=$NEW
  f=/tmp/s51/binab.json; rm -f $f
  mpirun --allow-run-as-root --oversubscribe -np $NP $bin $S -b 8 -e 512 -f 2 -n 20000 --quiet --json $f >/dev/null 2>&1
  python3 -c "
import json
for l in open('$f'):
    r=json.loads(l)
    print('$v', r['mode'], r['size'], r['time_us'])
"
 done
done
