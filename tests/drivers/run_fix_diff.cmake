# Applies the first fix `explain` prints for TEST (its unified diff) with `git apply` to a copy
# of the test, then checks that the patched test's observation is EXPECT: the diff is the fix.
# With -DCRLF=1 the copy has Windows line ends (the diff must keep them to apply).
# Usage: cmake -DPTXMC=<ptxmc> -DSRC=<source tree> -DTEST=<path in it> -DWORK=<dir>
#   -DEXPECT=<Never|Sometimes|...> [-DCRLF=1] -P run_fix_diff.cmake
file(REMOVE_RECURSE ${WORK})
get_filename_component(folder ${WORK}/${TEST} DIRECTORY)
file(MAKE_DIRECTORY ${folder})
file(READ ${SRC}/${TEST} text)
if(CRLF)
  string(REPLACE "\n" "\r\n" text "${text}")
endif()
file(WRITE ${WORK}/${TEST} "${text}")
# through a file: execute_process's OUTPUT_VARIABLE turns \r\n into \n
execute_process(COMMAND ${PTXMC} explain ${TEST} WORKING_DIRECTORY ${WORK} TIMEOUT 300
  RESULT_VARIABLE status OUTPUT_FILE ${WORK}/explain.txt ERROR_VARIABLE err)
file(READ ${WORK}/explain.txt out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "explain failed (${status}):\n${out}\n${err}")
endif()
# the first diff, cut with awk: CMake's file(READ) drops \r
execute_process(COMMAND awk [=[/^--- a\//{p=1} p&&/^$/{exit} p]=] explain.txt
  WORKING_DIRECTORY ${WORK} OUTPUT_FILE ${WORK}/fix.diff)
file(READ ${WORK}/fix.diff diff)
if(diff STREQUAL "")
  message(FATAL_ERROR "explain printed no diff:\n${out}")
endif()
execute_process(COMMAND git apply fix.diff WORKING_DIRECTORY ${WORK}
  RESULT_VARIABLE applied OUTPUT_VARIABLE aout ERROR_VARIABLE aerr)
if(NOT applied EQUAL 0)
  message(FATAL_ERROR "git apply failed:\n${aerr}\n${diff}")
endif()
execute_process(COMMAND ${PTXMC} check --no-time ${TEST} WORKING_DIRECTORY ${WORK}
  OUTPUT_VARIABLE checked ERROR_VARIABLE cerr)
string(FIND "${checked}" " ${EXPECT} " found)
if(found EQUAL -1)
  message(FATAL_ERROR "the patched test is not ${EXPECT}:\n${checked}\n${cerr}\n${diff}")
endif()
if(CRLF)
  execute_process(COMMAND awk [=[!/\r$/{n++} END{print n+0}]=] ${TEST} WORKING_DIRECTORY ${WORK}
    OUTPUT_VARIABLE bare OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT bare EQUAL 0)
    message(FATAL_ERROR "the patched test has ${bare} lines without their \\r:\n${diff}")
  endif()
endif()
