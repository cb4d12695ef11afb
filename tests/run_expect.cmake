# Runs ptxmc with ARGS and checks its exit status and that its output matches MATCH (and MATCH2).
# Usage: cmake -DPTXMC=<exe> "-DARGS=diff|--model|a.cat|..." -DRC=0 [-DMATCH=re] [-DMATCH2=re]
#        -P run_expect.cmake
# ARGS is separated by '|'; stdout and stderr are matched together.
foreach(var PTXMC ARGS RC)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_expect.cmake: -D${var}=... is required")
  endif()
endforeach()
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${PTXMC} ${args}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT status STREQUAL "${RC}")
  message(FATAL_ERROR "exit status ${status}, expected ${RC}; output:\n${all}")
endif()
foreach(var MATCH MATCH2)
  if(DEFINED ${var} AND NOT all MATCHES "${${var}}")
    message(FATAL_ERROR "output does not match '${${var}}':\n${all}")
  endif()
endforeach()
