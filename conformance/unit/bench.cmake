# vsym-bench: the framework pieces without ranks (results writer, statistics, check pattern) and
# the command-line errors (exit 2, one line).
vsym_add_unit_test(bench_results SOURCES unit/bench_results.c LABELS bench)
target_link_libraries(bench_results PRIVATE vsym_bench_framework)
add_test(NAME bench_options
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mr/bench_cli.sh options ${VSYM_RUN}
                 $<TARGET_FILE:vsym-bench>)
set_tests_properties(bench_options PROPERTIES LABELS "unit;bench;shm" TIMEOUT 120)
