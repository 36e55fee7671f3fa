# vsym-conform: the pre-deployment cluster check and the API suite as one installed program
# (conformance/vsym-conform/README.md), and its tests (label conform; verbs ones in the VM).
set(VSYM_CONFORM_DIR ${CMAKE_SOURCE_DIR}/conformance/vsym-conform)
add_executable(vsym-conform ${VSYM_CONFORM_DIR}/main.c ${VSYM_CONFORM_DIR}/config.c
               ${VSYM_CONFORM_DIR}/node.c ${VSYM_CONFORM_DIR}/fabric.c
               ${VSYM_CONFORM_DIR}/api.c ${VSYM_CONFORM_DIR}/report.c)
target_link_libraries(vsym-conform PRIVATE vsym_internal PkgConfig::JANSSON m)
if(IBVERBS_LIB)
  target_link_libraries(vsym-conform PRIVATE ${IBVERBS_LIB})
endif()
# The all-reduce check uses lib/coll when that module is built, else a reduction of its own.
if(TARGET vsym_coll)
  target_compile_definitions(vsym-conform PRIVATE VSYM_CONFORM_HAVE_COLL=1)
endif()
install(TARGETS vsym-conform RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(conform_tests ${VSYM_CONFORM_DIR}/tests)
# On this machine (shared memory, no RDMA): api mode with 2 and 4 ranks; deploy with a config
# that does not require RDMA (exit 0, the report files written); wrong expectations caught
# (exit 1 naming them); bad usage (exit 2).
foreach(np 2 4)
  add_test(NAME conform_api_np${np}
           COMMAND ${conform_tests}/run.sh api ${VSYM_RUN} $<TARGET_FILE:vsym-conform> ${np})
endforeach()
add_test(NAME conform_deploy_np4
         COMMAND ${conform_tests}/run.sh deploy ${VSYM_RUN} $<TARGET_FILE:vsym-conform> 4)
add_test(NAME conform_wrong_expectations
         COMMAND ${conform_tests}/run.sh wrong ${VSYM_RUN} $<TARGET_FILE:vsym-conform> 4)
add_test(NAME conform_killed_rank
         COMMAND ${conform_tests}/run.sh killed ${VSYM_RUN} $<TARGET_FILE:vsym-conform> 4)
add_test(NAME conform_usage
         COMMAND ${conform_tests}/run.sh usage ${VSYM_RUN} $<TARGET_FILE:vsym-conform> 1)
set_tests_properties(conform_api_np2 conform_api_np4 conform_deploy_np4
                     conform_wrong_expectations conform_killed_rank conform_usage
                     PROPERTIES LABELS "conform;shm" TIMEOUT 300 SKIP_RETURN_CODE 77
                     ENVIRONMENT "${VSYM_TEST_ENV}")
# In the Soft-RoCE VM (2 pretend nodes, each its own rxe device on its own end of a veth pair),
# one guest boot per group of cases (run_vm.sh): conform_vm_verbs, a healthy run exits 0 and a
# killed rank is named; conform_vm_netem, a degraded link (netem: delay, then rate) is named.
foreach(g verbs netem)
  add_test(NAME conform_vm_${g}
           COMMAND ${conform_tests}/run_vm.sh ${g} ${CMAKE_SOURCE_DIR} $<TARGET_FILE:vsym-conform>)
  # One emulated guest at a time (conformance/vm/vm.cmake's lock): two would starve each other.
  set_tests_properties(conform_vm_${g} PROPERTIES LABELS "conform;verbs;vm" TIMEOUT 900
                       SKIP_RETURN_CODE 77 RESOURCE_LOCK vsym_softroce_vm)
endforeach()
