# vsym-bench: the benchmark driver (benches/main.c, bench.c) and its suites. Every
# benches/suite_*.c is compiled in; a suite is listed with one line in benches/suites.def.
# results.c (JSON lines through jansson, no libvsym) and rtt.c (the cores' round trip) are a
# library of their own so that the peer programs of benches/peers/ write the same records.
add_library(vsym_bench_results STATIC ${CMAKE_CURRENT_SOURCE_DIR}/results.c
                                      ${CMAKE_CURRENT_SOURCE_DIR}/rtt.c)
target_link_libraries(vsym_bench_results PUBLIC PkgConfig::JANSSON Threads::Threads)
target_include_directories(vsym_bench_results PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})

# The shared framework (options-independent pieces), for vsym-bench and any other bench tool.
add_library(vsym_bench_framework STATIC ${CMAKE_CURRENT_SOURCE_DIR}/bench.c)
target_link_libraries(vsym_bench_framework PUBLIC vsym_internal vsym_bench_results m)

file(GLOB VSYM_BENCH_SUITE_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/suite_*.c)
add_executable(vsym-bench ${CMAKE_CURRENT_SOURCE_DIR}/main.c ${VSYM_BENCH_SUITE_SOURCES})
target_link_libraries(vsym-bench PRIVATE vsym_bench_framework)
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/suite_table.c PROPERTIES
  OBJECT_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/suites.def)
install(TARGETS vsym-bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

add_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}/peers ${CMAKE_CURRENT_BINARY_DIR}/peers)
