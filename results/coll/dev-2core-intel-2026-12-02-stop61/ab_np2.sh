# A/B of NT512_AB: op, rounds; prints per row: op kind size oop ip
for r in $(seq $2); do for ab in 0 1; do
NT512_AB=$ab mpirun --allow-run-as-root --oversubscribe -x NT512_AB -np 2 build/benches/vsym-bench $1 -b 32M -e 64M -f 2 -n 8 2>&1 | grep -v '^{' | awk -v ab=$ab -v op=$1 '/symmetric buffers/{k="sym"} /^# allreduce|^# allgather|^# reduce|^# broadcast|^# alltoall/{ if ($0 !~ /symmetric/) k="ord"} /^ +[0-9]/{print op, k, ab, $1, $3, $7}'
done; done
