# Writes the build-info header with the commit of the source tree now: included at configure
# time by lib/CMakeLists.txt, and run at every build by its target vsym_build_info. configure_file
# rewrites OUT only when its text changes, so an unchanged commit rebuilds nothing.
# Variables: SRC_DIR, IN, OUT, PROJECT_VERSION.
execute_process(COMMAND git describe --always --dirty --abbrev=12
  WORKING_DIRECTORY ${SRC_DIR} OUTPUT_VARIABLE VSYM_GIT_COMMIT
  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT VSYM_GIT_COMMIT)
  set(VSYM_GIT_COMMIT "unknown")
endif()
configure_file(${IN} ${OUT} @ONLY)
