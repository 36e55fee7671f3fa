# Real resharding on launched ranks (shm here; verbs in the VM), every element verified.
vsym_add_mr_test(reshard_exec SOURCES mr/reshard_exec.c NP 1 2 3 4 LABELS reshard)
