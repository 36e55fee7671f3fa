# vsym-plan: reshard planning at full scale on one machine (no ranks are started).
add_executable(vsym-plan ${CMAKE_CURRENT_SOURCE_DIR}/vsym-plan.c)
target_link_libraries(vsym-plan PRIVATE vsym_internal PkgConfig::JANSSON)
install(TARGETS vsym-plan RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
