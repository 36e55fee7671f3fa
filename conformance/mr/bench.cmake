# vsym-bench over 2 ranks (shm): the JSON lines parse and carry the configuration; --check finds
# a corrupted byte (hidden --test-corrupt) and passes without it; the peer comparison runs.
foreach(what json check pairs loaded)
  add_test(NAME bench_${what}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mr/bench_cli.sh ${what} ${VSYM_RUN}
                   $<TARGET_FILE:vsym-bench>)
  set_tests_properties(bench_${what} PROPERTIES LABELS "bench;shm" TIMEOUT 300
                       SKIP_RETURN_CODE 77)
endforeach()
add_test(NAME bench_compare
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mr/bench_cli.sh compare ${VSYM_RUN}
                 $<TARGET_FILE:vsym-bench>)
set_tests_properties(bench_compare PROPERTIES LABELS "bench;shm" TIMEOUT 300
                     SKIP_RETURN_CODE 77)
# The README's main job, quick (about 80 s here: the peer comparison's collectives to 4 MiB), into a
# folder of its own.
add_test(NAME bench_main_job
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mr/bench_cli.sh mainjob ${VSYM_RUN}
                 $<TARGET_FILE:vsym-bench>)
set_tests_properties(bench_main_job PROPERTIES LABELS "bench;shm" TIMEOUT 300
                     SKIP_RETURN_CODE 77)
if(VSYM_SANITIZE)
  # OSHMEM puts its symmetric heap where AddressSanitizer keeps its shadow memory: the reference
  # cannot run in this build (the test says so and skips).
  set_property(TEST bench_compare bench_main_job APPEND PROPERTY ENVIRONMENT
               VSYMTEST_SANITIZED=1)
endif()
