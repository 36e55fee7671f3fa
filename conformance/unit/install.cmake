add_test(NAME install_example
         COMMAND ${CMAKE_SOURCE_DIR}/conformance/install/install_test.sh ${CMAKE_BINARY_DIR}
                 ${VSYM_SANITIZE})
set_tests_properties(install_example PROPERTIES LABELS "unit;shm" TIMEOUT 300)
