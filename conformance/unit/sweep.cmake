# The sweep runner (launch/vsym-sweep) and the report tool (results/vsym-report): Python 3 and
# gnuplot scripts, tested with hand-made runs (sweep_fixture.py) and, where it is built, the
# real vsym-bench. Label: sweep.
set(sweep_tests
    "sweep_parse|sweep_parse.sh|60"
    "sweep_run|sweep_run.sh|300"
    "sweep_report|sweep_report.sh|120"
    "sweep_compare|sweep_compare.sh|120"
    "sweep_screenshot|sweep_screenshot.sh|180")
foreach(t ${sweep_tests})
  string(REPLACE "|" ";" t "${t}")
  list(GET t 0 name)
  list(GET t 1 script)
  list(GET t 2 timeout)
  add_test(NAME ${name}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/${script} ${CMAKE_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES LABELS "unit;sweep" TIMEOUT ${timeout}
                       SKIP_RETURN_CODE 77)
endforeach()
# sweep_run runs ranks through launch/vsym-run: also label shm.
set_tests_properties(sweep_run PROPERTIES LABELS "unit;sweep;shm")
if(TARGET vsym-bench)
  add_test(NAME sweep_real
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/sweep_real.sh ${CMAKE_SOURCE_DIR}
                   $<TARGET_FILE:vsym-bench>)
  set_tests_properties(sweep_real PROPERTIES LABELS "unit;sweep;shm" TIMEOUT 300
                       SKIP_RETURN_CODE 77)
endif()
