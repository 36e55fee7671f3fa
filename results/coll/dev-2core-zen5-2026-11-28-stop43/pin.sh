#!/bin/bash
# Stop 43: run a rank pinned to the CPU PIN_MAP gives it (one CPU per rank, space-separated):
#   PIN_MAP="0 0 1 1" mpirun --allow-run-as-root --oversubscribe --bind-to none -np 4 \
#     -x PIN_MAP pin.sh build/benches/vsym-bench fused --op reducescatter_allreduce ...
r=${OMPI_COMM_WORLD_RANK:-0}
read -r -a m <<< "$PIN_MAP"
exec taskset -c "${m[$r]}" "$@"
