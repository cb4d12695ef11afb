# A file name is bytes, not always UTF-8: `ptxmc check --json` on one must still print its array.
# Usage: cmake -DPTXMC=<ptxmc> -DTEST_FILE=<a passing .litmus> -DWORK=<scratch> -P json_non_utf8.cmake
string(ASCII 255 ff)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(COPY_FILE ${TEST_FILE} "${WORK}/bad${ff}name.litmus")
execute_process(COMMAND ${PTXMC} check --json --no-time ${WORK} TIMEOUT 60
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
# No expected.txt governs the copy: 0 is the status of an ungoverned, solved test.
if(NOT status STREQUAL "0" OR NOT out MATCHES "\"observation\"")
  message(FATAL_ERROR "status ${status}\nstdout:\n${out}\nstderr:\n${err}")
endif()
message(STATUS "ok: JSON printed for a non-UTF-8 file name")
