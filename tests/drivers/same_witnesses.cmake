# `ptxmc kernel` prints the same witnesses for a flag whatever else it checks: twice without
# --readings and twice with it, the flags and witness lines (events and their inlining chains)
# must be the same bytes.
# Usage: cmake -DPTXMC=<ptxmc> -DARGS="a|b|c" -DWORK=<scratch folder> -P same_witnesses.cmake
foreach(var PTXMC ARGS WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "same_witnesses.cmake: -D${var}=... is required")
  endif()
endforeach()
string(REPLACE "|" ";" args "${ARGS}")
file(MAKE_DIRECTORY ${WORK})

# The "Flag ..." sections of one run: each flag's line and its witnesses' lines, nothing else
# (the properties and readings lines differ by design).
function(witnesses name)
  execute_process(COMMAND ${PTXMC} kernel ${ARGN} ${args} TIMEOUT 300
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 1)
    message(FATAL_ERROR "ptxmc kernel ${ARGN} ${args}: exit status ${status}, expected 1 "
                        "(a flag)\n${out}\n${err}")
  endif()
  string(REPLACE ";" "<semicolon>" out "${out}")
  string(REPLACE "\n" ";" lines "${out}")
  set(kept "")
  set(inside OFF)
  foreach(line IN LISTS lines)
    if(line MATCHES "^Flag ")
      set(inside ON)
    elseif(NOT line MATCHES "^  ")
      set(inside OFF)
    endif()
    if(inside)
      string(APPEND kept "${line}\n")
    endif()
  endforeach()
  if(kept STREQUAL "")
    message(FATAL_ERROR "ptxmc kernel ${ARGN} ${args} printed no witness\n${out}")
  endif()
  file(WRITE ${WORK}/${name}.witnesses "${kept}")
endfunction()

witnesses(plain)
witnesses(plain-again)
witnesses(readings --readings)
witnesses(readings-again --readings)
foreach(other plain-again readings readings-again)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/plain.witnesses
                          ${WORK}/${other}.witnesses RESULT_VARIABLE differ)
  if(differ)
    execute_process(COMMAND diff -u ${WORK}/plain.witnesses ${WORK}/${other}.witnesses
      OUTPUT_VARIABLE delta)
    message(FATAL_ERROR "the witnesses of '${other}' differ from those without --readings:\n"
                        "${delta}")
  endif()
endforeach()
file(READ ${WORK}/plain.witnesses shown)
message(STATUS "the same witnesses four times:\n${shown}")
