# The core API over the transports of this machine (shm here; verbs in the VM).
vsym_add_mr_test(core_smoke SOURCES mr/core_smoke.c NP 1 2 4)
vsym_add_mr_test(core_rma SOURCES mr/core_rma.c NP 1 2 4)
vsym_add_mr_test(core_atomics SOURCES mr/core_atomics.c NP 1 2 4)
vsym_add_mr_test(core_signal SOURCES mr/core_signal.c NP 2 4)
vsym_add_mr_test(core_teams SOURCES mr/core_teams.c NP 1 2 3 4)
vsym_add_mr_test(core_heap SOURCES mr/core_heap.c NP 1 2 4)
vsym_add_mr_test(core_errors SOURCES mr/core_errors.c NP 1 2 4)
# Where the OS forbids process-to-process copies (a seccomp filter installed by the test).
vsym_add_mr_test(core_no_pcopy SOURCES mr/core_no_pcopy.c NP 2 3)
# The same checks without the filter: VSYM_PROCESS_COPY=off (the program sets it).
foreach(np 2 3)
  add_test(NAME core_no_pcopy_setting_np${np}
           COMMAND ${VSYM_RUN} -n ${np} --timeout 180 -- $<TARGET_FILE:core_no_pcopy> --setting)
  set_tests_properties(core_no_pcopy_setting_np${np} PROPERTIES LABELS "shm" TIMEOUT 180
                       SKIP_RETURN_CODE 77 ENVIRONMENT "${VSYM_TEST_ENV}")
endforeach()
# VSYM_PROCESS_COPY's values seen from outside: the test traps the library's prctl(PR_SET_PTRACER)
# with a seccomp filter and counts it, then checks which copies each value leaves.
add_executable(core_ptracer mr/core_ptracer.c)
target_link_libraries(core_ptracer PRIVATE vsym_internal)
target_include_directories(core_ptracer PRIVATE ${CMAKE_SOURCE_DIR}/conformance)
foreach(mode auto keep off)
  add_test(NAME core_ptracer_${mode}_np2
           COMMAND ${VSYM_RUN} -n 2 --timeout 180 -- $<TARGET_FILE:core_ptracer> ${mode})
  set_tests_properties(core_ptracer_${mode}_np2 PROPERTIES LABELS "shm" TIMEOUT 180
                       SKIP_RETURN_CODE 77 ENVIRONMENT "${VSYM_TEST_ENV}")
endforeach()
add_test(NAME core_killed_rank
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mr/killed_rank.sh ${VSYM_RUN} $<TARGET_FILE:core_errors>)
set_tests_properties(core_killed_rank PROPERTIES LABELS "shm" TIMEOUT 120)
# Without a launcher the program is a job of one (PMIx_Init fails, the core says so and goes on).
add_test(NAME core_singleton COMMAND core_smoke)
set_tests_properties(core_singleton PROPERTIES LABELS "unit;shm" TIMEOUT 60
                     ENVIRONMENT "${VSYM_TEST_ENV}")
add_test(NAME core_singleton_errors COMMAND core_errors)
set_tests_properties(core_singleton_errors PROPERTIES LABELS "unit;shm" TIMEOUT 60
                     ENVIRONMENT "${VSYM_TEST_ENV}")
