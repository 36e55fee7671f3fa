add_test(NAME install_example
         COMMAND ${CMAKE_SOURCE_DIR}/conformance/install/install_test.sh ${CMAKE_BINARY_DIR}
                 ${VSYM_SANITIZE})
set_tests_properties(install_example PROPERTIES LABELS "unit;shm" TIMEOUT 300)
# libvsym.so calls its own exported functions directly (lib/CMakeLists.txt: -Bsymbolic-functions):
# no PLT slot of its own may name a vsym_ function.
add_test(NAME lib_local_calls
         COMMAND bash -c "command -v readelf >/dev/null || { echo 'skip: no readelf'; exit 77; }; \
slots=$(readelf -rW \"$1\" | grep -c 'JUMP_SLO.* vsym_'); \
echo \"$slots PLT slots of vsym_ functions in $1\"; [ \"$slots\" = 0 ]" _ $<TARGET_FILE:vsym>)
set_tests_properties(lib_local_calls PROPERTIES LABELS "unit" TIMEOUT 30 SKIP_RETURN_CODE 77)
