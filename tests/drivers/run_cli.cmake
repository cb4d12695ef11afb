# Runs one ptxmc command line and checks its exit status and what it printed where.
# Usage: cmake -DPTXMC=<ptxmc> -DARGS="a|b|c" [-DSTATUS=n] [-DSTDOUT_HAS="s1|s2"]
#   [-DSTDOUT_LACKS=..] [-DSTDOUT_ONE_OF="a^b|c^d"] [-DSTDERR_HAS=..] [-DSTDERR_LACKS=..]
#   [-DSTDOUT_MAX_LINES=n] [-DNO_PROGRESS=ON]
#   [-DTERMINAL=ON] [-DGOLDEN=file] [-DOUTPUT_FILE=path -DOUTPUT_FILE_HAS=..] -P run_cli.cmake
# or included by run_case.cmake, which sets the same variables from a case file (and `args`,
# `output_matches`).
# Lists are '|'-separated: ctest would split ';' lists into separate arguments. STDOUT_ONE_OF's
# groups each need one of their '^'-separated parts in stdout.
# TERMINAL=ON runs the command under script(1), so that stdout and stderr are a terminal (a
# pty), and checks the progress line: drawn, then cleared before the summary.
# OUTPUT_FILE (written by the command, e.g. with -o) is removed first and must then hold every
# OUTPUT_FILE_HAS part and no OUTPUT_FILE_LACKS part.
# GOLDEN=file (relative to the source tree) must equal stdout byte for byte; what was printed
# instead is left in WORK (the build tree) for the diff.
if(NOT DEFINED PTXMC OR (NOT DEFINED ARGS AND NOT DEFINED args))
  message(FATAL_ERROR "run_cli.cmake: -DPTXMC=... and -DARGS=... are required")
endif()
if(NOT DEFINED args) # run_case.cmake includes this file with the case's arguments split
  string(REPLACE "|" ";" args "${ARGS}")
endif()
if(DEFINED OUTPUT_FILE)
  file(REMOVE ${OUTPUT_FILE})
endif()

if(TERMINAL)
  find_program(SCRIPT script)
  if(NOT SCRIPT)
    message(STATUS "SKIPPED: no script(1) to make a pty")
    return()
  endif()
  set(line "'${PTXMC}'")
  foreach(arg IN LISTS args)
    string(APPEND line " '${arg}'")
  endforeach()
  # -e: script's status is the command's; -q: no banner; the typescript goes nowhere.
  execute_process(COMMAND ${SCRIPT} -qec "${line}" /dev/null TIMEOUT 300
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(err MATCHES "openpty|cannot open|not permitted")
    message(STATUS "SKIPPED: no pty here: ${err}")
    return()
  endif()
  set(err "${out}") # both streams come back through the pty
else()
  execute_process(COMMAND ${PTXMC} ${args} TIMEOUT 300
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
set(shown "status ${status}\nstdout:\n${out}\nstderr:\n${err}")

if(DEFINED STATUS AND NOT status STREQUAL STATUS)
  message(FATAL_ERROR "exit status ${status}, expected ${STATUS}\n${shown}")
endif()
# `what` must hold every '|'-separated part of `has` and none of `lacks`.
# A part may hold ';' (a list separator here): it is masked while the parts are split.
string(ASCII 29 semicolon_mark)
function(check_parts what text has lacks shown)
  string(REPLACE ";" "${semicolon_mark}" has "${has}")
  string(REPLACE ";" "${semicolon_mark}" lacks "${lacks}")
  string(REPLACE "|" ";" wanted "${has}")
  foreach(part IN LISTS wanted)
    string(REPLACE "${semicolon_mark}" ";" part "${part}")
    string(FIND "${text}" "${part}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${what} lacks \"${part}\"\n${shown}")
    endif()
  endforeach()
  string(REPLACE "|" ";" unwanted "${lacks}")
  foreach(part IN LISTS unwanted)
    string(REPLACE "${semicolon_mark}" ";" part "${part}")
    string(FIND "${text}" "${part}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${what} holds \"${part}\"\n${shown}")
    endif()
  endforeach()
endfunction()
check_parts(stdout "${out}" "${STDOUT_HAS}" "${STDOUT_LACKS}" "${shown}")
if(DEFINED STDOUT_ONE_OF)
  string(REPLACE "|" ";" groups "${STDOUT_ONE_OF}")
  foreach(group IN LISTS groups)
    string(REPLACE "^" ";" parts "${group}")
    set(found OFF)
    foreach(part IN LISTS parts)
      string(FIND "${out}" "${part}" at)
      if(NOT at EQUAL -1)
        set(found ON)
      endif()
    endforeach()
    if(NOT found)
      message(FATAL_ERROR "stdout lacks each of \"${parts}\"\n${shown}")
    endif()
  endforeach()
endif()
check_parts(stderr "${err}" "${STDERR_HAS}" "${STDERR_LACKS}" "${shown}")
foreach(pattern IN LISTS output_matches) # set by run_case.cmake: regular expressions
  string(REPLACE "${semicolon_mark}" ";" pattern "${pattern}")
  if(NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "the output does not match '${pattern}'\n${shown}")
  endif()
endforeach()
if(DEFINED STDOUT_MAX_LINES)
  string(REGEX MATCHALL "\n" newlines "${out}")
  list(LENGTH newlines lines)
  if(lines GREATER STDOUT_MAX_LINES)
    message(FATAL_ERROR "stdout has ${lines} lines, more than ${STDOUT_MAX_LINES}\n${shown}")
  endif()
endif()

if(DEFINED OUTPUT_FILE)
  if(NOT EXISTS ${OUTPUT_FILE})
    message(FATAL_ERROR "${OUTPUT_FILE} was not written\n${shown}")
  endif()
  file(READ ${OUTPUT_FILE} written)
  check_parts(${OUTPUT_FILE} "${written}" "${OUTPUT_FILE_HAS}" "${OUTPUT_FILE_LACKS}"
    "${OUTPUT_FILE}:\n${written}")
endif()

if(DEFINED GOLDEN)
  file(READ ${GOLDEN} golden)
  if(NOT out STREQUAL golden)
    get_filename_component(golden_name ${GOLDEN} NAME)
    set(actual ${WORK}/${golden_name}.actual)
    file(WRITE ${actual} "${out}")
    execute_process(COMMAND diff -u ${GOLDEN} ${actual} OUTPUT_VARIABLE delta)
    message(FATAL_ERROR "stdout differs from ${GOLDEN} (regenerate it if the change is "
      "intended):\n${delta}")
  endif()
endif()

# ptxmc check's line (tests done), or ptxmc kernel's (one check's time)
set(progress_line
  "ptxmc: ([0-9]+/[0-9]+ tests, [0-9]+\\.[0-9] s, [0-9]+ failures|checking [^\r\n]+, [0-9]+\\.[0-9] s)")
if(NO_PROGRESS)
  # Not a terminal: not one byte of the progress line, not even a carriage return.
  string(FIND "${err}" "\r" at)
  if(NOT at EQUAL -1 OR err MATCHES "${progress_line}")
    message(FATAL_ERROR "progress output on a stderr that is not a terminal\n${shown}")
  endif()
endif()
if(TERMINAL)
  if(NOT err MATCHES "\r${progress_line}")
    message(FATAL_ERROR "no progress line on the terminal\n${shown}")
  endif()
  # Blanked out (carriage return, spaces, carriage return) before the summary is printed.
  if(NOT err MATCHES "\r +\r(ptxmc: [0-9]+ tests, [0-9]+ matched|Kernel )")
    message(FATAL_ERROR "the progress line was not cleared before the summary\n${shown}")
  endif()
endif()
message(STATUS "ok: ptxmc ${args}")
