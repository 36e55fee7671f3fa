# mpi-coll: Open MPI's collectives timed like vsym-bench's collective suites (reference
# figures side by side). Built only when an MPI C compiler is found.
find_package(MPI COMPONENTS C QUIET)
if(MPI_C_FOUND)
  add_executable(mpi-coll ${CMAKE_CURRENT_LIST_DIR}/mpi_coll.c ${CMAKE_CURRENT_LIST_DIR}/peer_common.c)
  target_include_directories(mpi-coll PRIVATE ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_CURRENT_LIST_DIR}/..
                             ${CMAKE_SOURCE_DIR}/lib/include ${CMAKE_SOURCE_DIR}/lib
                             ${CMAKE_BINARY_DIR}/generated)
  # Only libvsym's utilities (size parser, clock, sysinfo) are used: link the static archive
  # directly so that no second PMIx client is pulled into the MPI program.
  add_dependencies(mpi-coll vsym_static)
  target_link_libraries(mpi-coll PRIVATE MPI::MPI_C vsym_bench_results
                        $<TARGET_FILE:vsym_static> ${NUMA_LIB} ${CPUFREQ_LIB} m)
else()
  message(STATUS "MPI not found: benches/peers/mpi-coll is not built")
endif()
