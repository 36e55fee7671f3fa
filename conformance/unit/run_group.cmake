# conformance/vm/run-group's rule for reruns after Soft-RoCE retransmissions, with fake counters
# (it needs no VM). Label: unit.
add_test(NAME run_group COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/run_group.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(run_group PROPERTIES LABELS "unit" TIMEOUT 120)

# launch/vsym-softroce's boot rules (a guest kernel crash at boot is retried once, nothing else),
# with a fake qemu. Label: unit.
add_test(NAME softroce_boot
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/softroce_boot.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(softroce_boot PROPERTIES LABELS "unit" TIMEOUT 120 SKIP_RETURN_CODE 77)
