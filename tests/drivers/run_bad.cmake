# Runs `ptxmc check` on an input that must be rejected: exit 2, and stderr holding a line that
# starts with the expected `file:line:col: error: message` text, within a time limit, no crash.
# Usage: cmake -DPTXMC=<ptxmc> -DTEST_FILE=<file> [-DMODEL_TEST=<test.litmus>] -P run_bad.cmake
# With MODEL_TEST, TEST_FILE is a model: `ptxmc check --model TEST_FILE MODEL_TEST`.
# The expectation is the file's `(* expect-error: ... *)` comment, or, for a file that cannot
# hold one (zero bytes), the first line of TEST_FILE.expect.
foreach(var PTXMC TEST_FILE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_bad.cmake: -D${var}=... is required")
  endif()
endforeach()

if(EXISTS ${TEST_FILE}.expect)
  file(STRINGS ${TEST_FILE}.expect expected LIMIT_COUNT 1)
else()
  # The comment sits at the top; the rest may be binary or very long.
  file(READ ${TEST_FILE} text LIMIT 4096)
  set(marker "(* expect-error:")
  string(FIND "${text}" "${marker}" start)
  if(start EQUAL -1)
    message(FATAL_ERROR "${TEST_FILE}: no `(* expect-error: ... *)` comment")
  endif()
  string(LENGTH "${marker}" marker_length)
  math(EXPR start "${start} + ${marker_length}")
  string(SUBSTRING "${text}" ${start} -1 rest)
  string(FIND "${rest}" "*)" end)
  if(end EQUAL -1)
    message(FATAL_ERROR "${TEST_FILE}: unterminated expect-error comment")
  endif()
  string(SUBSTRING "${rest}" 0 ${end} expected)
endif()
string(STRIP "${expected}" expected)
if(expected STREQUAL "")
  message(FATAL_ERROR "${TEST_FILE}: empty expect-error text")
endif()

if(DEFINED MODEL_TEST)
  set(command ${PTXMC} check --no-time --model ${TEST_FILE} ${MODEL_TEST})
else()
  set(command ${PTXMC} check --no-time ${TEST_FILE})
endif()
# A rejection takes milliseconds; the limit catches a hang without waiting for ctest's own.
execute_process(COMMAND ${command} TIMEOUT 30
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status STREQUAL "2")
  message(FATAL_ERROR "${TEST_FILE}: exit status ${status}, expected 2\n"
    "stdout:\n${out}\nstderr:\n${err}")
endif()
# At the start of a line: the position is part of the promise, not just the words.
string(FIND "\n${err}" "\n${expected}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "${TEST_FILE}: no stderr line starts with \"${expected}\"\nstderr:\n${err}")
endif()
foreach(crash "internal error" "Sanitizer" "runtime error:")
  string(FIND "${err}" "${crash}" found)
  if(NOT found EQUAL -1)
    message(FATAL_ERROR "${TEST_FILE}: stderr reports \"${crash}\"\nstderr:\n${err}")
  endif()
endforeach()
message(STATUS "${TEST_FILE}: rejected as expected (${expected})")
