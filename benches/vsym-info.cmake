add_executable(vsym-info ${CMAKE_CURRENT_SOURCE_DIR}/vsym-info.c)
target_link_libraries(vsym-info PRIVATE vsym_static)
install(TARGETS vsym-info DESTINATION ${CMAKE_INSTALL_BINDIR})
