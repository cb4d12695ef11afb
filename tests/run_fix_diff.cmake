# Applies the first fix `explain` prints for TEST (its unified diff) with `git apply` to a copy
# of the test, then checks that the patched test's observation is EXPECT: the diff is the fix.
# Usage: cmake -DPTXMC=<ptxmc> -DSRC=<source tree> -DTEST=<path in it> -DWORK=<dir>
#   -DEXPECT=<Never|Sometimes|...> -P run_fix_diff.cmake
execute_process(COMMAND ${PTXMC} explain ${TEST} WORKING_DIRECTORY ${SRC} TIMEOUT 300
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "explain failed (${status}):\n${out}\n${err}")
endif()
string(FIND "${out}" "--- a/" begin)
if(begin EQUAL -1)
  message(FATAL_ERROR "explain printed no diff:\n${out}")
endif()
string(SUBSTRING "${out}" ${begin} -1 diff)
string(FIND "${diff}" "\n\n" end)
string(SUBSTRING "${diff}" 0 ${end} diff)
file(REMOVE_RECURSE ${WORK})
get_filename_component(folder ${WORK}/${TEST} DIRECTORY)
file(MAKE_DIRECTORY ${folder})
file(COPY_FILE ${SRC}/${TEST} ${WORK}/${TEST})
file(WRITE ${WORK}/fix.diff "${diff}\n")
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
