# Collectives and fused collectives (lib/coll) over the transports of this machine.
vsym_add_mr_test(coll_ops SOURCES mr/coll_ops.c NP 1 2 3 4 LABELS coll)
vsym_add_mr_test(coll_fused SOURCES mr/coll_fused.c NP 1 2 4 LABELS coll)
# Long repetitions (thousands of back-to-back fused calls, larger counts): label slow.
foreach(t coll_ops coll_fused)
  add_test(NAME ${t}_slow_np4
           COMMAND ${VSYM_RUN} -n 4 --timeout 900 -- $<TARGET_FILE:${t}> --slow)
  set_tests_properties(${t}_slow_np4 PROPERTIES LABELS "shm;coll;slow" TIMEOUT 900
                       SKIP_RETURN_CODE 77)
endforeach()
