# Runs ptxmc compare on recorded results; checks the exit status and the exact output.
# Usage: cmake -DPTXMC=<ptxmc> -DRESULTS=<json> -DEXPECTED=<file> -DSTATUS=<n> [-DFORMAT=text]
#        [-DMUTANTS=<mutants file>] -P compare.cmake (from the repository root)
if(NOT DEFINED FORMAT)
  set(FORMAT text)
endif()
set(mutants_arg)
if(DEFINED MUTANTS AND EXISTS ${MUTANTS})
  set(mutants_arg --mutants ${MUTANTS})
endif()
execute_process(COMMAND ${PTXMC} compare --format ${FORMAT} ${mutants_arg} ${RESULTS}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status MATCHES "^(${STATUS})$")
  message(FATAL_ERROR "ptxmc compare exited ${status}, expected ${STATUS}:\n${out}\n${err}")
endif()
file(READ ${EXPECTED} expected)
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "ptxmc compare printed:\n${out}\nexpected (${EXPECTED}):\n${expected}")
endif()
