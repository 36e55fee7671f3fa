# The multi-rank tests at team sizes beyond the 1-4 ranks of their own entries: 7 (odd) and 16.
# About 100 s together on the 2-core host (coll_ops at 16 ranks about 60 s), so in the default run.
#   launch/run-tests -- -L scale
foreach(t core_atomics core_teams core_signal copy_random copy_errors reshard_exec coll_fused
          coll_ops)
  foreach(np 7 16)
    add_test(NAME ${t}_scale_np${np}
             COMMAND ${VSYM_RUN} -n ${np} --timeout 1500 -- $<TARGET_FILE:${t}>)
    # VSYM_TEST_SCOPE=scale: coll_ops leaves out its streaming-store variants (the CPU's stores,
    # whatever the team's size: its 2-4-rank entries run them), 37 of its 137 s at 16 ranks.
    set_tests_properties(${t}_scale_np${np} PROPERTIES LABELS "shm;scale" TIMEOUT 1500
                         SKIP_RETURN_CODE 77
                         ENVIRONMENT "${VSYM_TEST_ENV};VSYM_TEST_SCOPE=scale")
  endforeach()
endforeach()
