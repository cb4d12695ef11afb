# The witness picture renders without Graphviz warnings, for 2 to 4 threads and a kernel
# protocol, folded and whole. Usage: cmake -DPTXMC=<ptxmc> -DOUT=<folder> -P witness_dot.cmake (source tree)
find_program(DOT dot)
if(NOT DOT)
  message(STATUS "SKIPPED: no Graphviz dot")
  return()
endif()
# A kernel protocol both folded (the default: what takes part) and whole (--verbose).
foreach(test litmus/tcgen05/commit/L16-MP+commit-nofa.litmus litmus/ptx/classic/WRC+relaxed.litmus
    litmus/ptx/classic/IRIW+relaxed.gpu.litmus litmus/kernels/tma-umma/umma-1x2.litmus
    litmus/kernels/umma-2sm/umma-2sm-1x2-peer-no-fb.litmus
    "--verbose|litmus/kernels/umma-2sm/umma-2sm-1x2-peer-no-fb.litmus")
  string(REPLACE "|" ";" test "${test}")
  execute_process(COMMAND ${PTXMC} explain --format dot -o ${OUT}/witness.dot ${test}
    RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "explain ${test} failed (${status}): ${err}")
  endif()
  execute_process(COMMAND ${DOT} -Tsvg ${OUT}/witness.dot -o ${OUT}/witness.svg
    RESULT_VARIABLE status ERROR_VARIABLE warnings)
  if(NOT status EQUAL 0 OR NOT warnings STREQUAL "")
    message(FATAL_ERROR "dot on the witness of ${test}: status ${status}\n${warnings}")
  endif()
endforeach()
message(STATUS "ok: witnesses render without warnings")
