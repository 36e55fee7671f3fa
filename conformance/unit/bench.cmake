# vsym-bench: the framework pieces without ranks (results writer, statistics, check pattern) and
# the command-line errors (exit 2, one line).
vsym_add_unit_test(bench_results SOURCES unit/bench_results.c LABELS bench)
target_link_libraries(bench_results PRIVATE vsym_bench_framework)
add_test(NAME bench_options
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mr/bench_cli.sh options ${VSYM_RUN}
                 $<TARGET_FILE:vsym-bench>)
set_tests_properties(bench_options PROPERTIES LABELS "unit;bench;shm" TIMEOUT 120)
# benches/peers/verbs-compare's option errors and --help (no VM: the runs themselves need one).
add_test(NAME verbs_compare_options
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/verbs_compare_cli.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR})
set_tests_properties(verbs_compare_options PROPERTIES LABELS "unit;bench" TIMEOUT 60)
