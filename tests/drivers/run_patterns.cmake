# Regenerates docs/patterns.md with `ptxmc patterns`; fails when the committed file differs.
# Usage: cmake -DPTXMC=<exe> -DSOURCE=<source tree> -DOUT=<scratch file> -P run_patterns.cmake
if(NOT DEFINED PTXMC OR NOT DEFINED SOURCE OR NOT DEFINED OUT)
  message(FATAL_ERROR "run_patterns.cmake: -DPTXMC, -DSOURCE and -DOUT are required")
endif()

file(REMOVE ${OUT})
execute_process(
  COMMAND ${PTXMC} patterns --jobs 2 --links-from docs -o ${OUT} litmus/kernels
  WORKING_DIRECTORY ${SOURCE} RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ptxmc patterns failed (exit ${status}):\n${err}")
endif()
file(SHA256 ${OUT} new_hash)
file(SHA256 ${SOURCE}/docs/patterns.md old_hash)
if(NOT new_hash STREQUAL old_hash)
  message(FATAL_ERROR "docs/patterns.md is stale; regenerate it with\n"
                      "  build/ptxmc patterns --jobs 2 -o docs/patterns.md litmus/kernels")
endif()
