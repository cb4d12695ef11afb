# The whole corpus, checked twice and with --jobs 1 vs --jobs 2, must print identical bytes.
# Usage: cmake -DPTXMC=<ptxmc> -DCORPUS=<path>|<path>... -DWORK=<scratch folder> -P determinism.cmake
# Text and JSON, stdout and stderr (the summary) and the exit status; --no-time keeps timings
# out, the only part of the output that may differ.
foreach(var PTXMC CORPUS WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "determinism.cmake: -D${var}=... is required")
  endif()
endforeach()
string(REPLACE "|" ";" CORPUS "${CORPUS}")
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run name)
  execute_process(COMMAND ${PTXMC} check --no-time ${ARGN} ${CORPUS} TIMEOUT 600
    RESULT_VARIABLE status OUTPUT_FILE ${WORK}/${name}.out ERROR_FILE ${WORK}/${name}.err)
  file(WRITE ${WORK}/${name}.status "${status}\n")
  file(SIZE ${WORK}/${name}.out size)
  if(size EQUAL 0)
    message(FATAL_ERROR "ptxmc check ${ARGN} ${CORPUS} printed nothing (status ${status})")
  endif()
endfunction()

function(same a b)
  foreach(ext out err status)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/${a}.${ext}
                            ${WORK}/${b}.${ext} RESULT_VARIABLE differ)
    if(differ)
      message(FATAL_ERROR "'${a}' and '${b}' differ in ${ext}: diff ${WORK}/${a}.${ext} "
                          "${WORK}/${b}.${ext}")
    endif()
  endforeach()
  message(STATUS "${a} == ${b}")
endfunction()

run(text-j1 --jobs 1)
run(text-j1-again --jobs 1)
run(text-j2 --jobs 2)
run(json-j1 --json --jobs 1)
run(json-j2 --json --jobs 2)
same(text-j1 text-j1-again)
same(text-j1 text-j2)
same(json-j1 json-j2)
