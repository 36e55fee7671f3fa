# Sourced by the Soft-RoCE VM run scripts of results/coll (two pretend nodes, VSYM_VIRTUAL_NODES=2).
# Open MPI cannot be told of pretend nodes (it would take shared memory between all ranks of the
# VM), so its ranks use UCX's RC and UD verbs transports only, each rank on its node's device:
# across the link it runs as on two real nodes; inside a node it loops back through its device
# where vsym uses shared memory.
# ucx NP PROGRAM ARGS...: mpirun with half the ranks on rxe0 and half on rxe1, under $T (a
# timeout command, or empty).
ucx() {
  local np=$1; shift
  local h=$((np / 2))
  ${T:-} mpirun --allow-run-as-root --oversubscribe --mca pml ucx -x UCX_TLS=rc_verbs,ud_verbs,self \
    -np $h -x UCX_NET_DEVICES=rxe0:1 "$@" : -np $h -x UCX_NET_DEVICES=rxe1:1 "$@"
}
