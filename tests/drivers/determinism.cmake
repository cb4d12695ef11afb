# The whole corpus, checked twice and with --jobs 1 vs --jobs 2, must print identical bytes, and
# each test checked alone (a process of its own) the same answer as in the corpus: an answer
# must not depend on the tests checked before it (Z3's witnesses once did, through a
# process-wide count of fresh names, and --jobs 2 printed other data-race witnesses).
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

# Every corpus test in a ptxmc process of its own; the answers one after another.
function(run_alone name)
  set(answers "")
  foreach(path IN LISTS CORPUS)
    set(files ${path})
    if(IS_DIRECTORY ${path})
      file(GLOB_RECURSE files RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} ${path}/*.litmus)
    endif()
    foreach(file IN LISTS files)
      execute_process(COMMAND ${PTXMC} check --no-time --jobs 1 ${file} TIMEOUT 600
        OUTPUT_VARIABLE answer ERROR_QUIET)
      string(APPEND answers "${answer}\n")
    endforeach()
  endforeach()
  file(WRITE ${WORK}/${name}.out "${answers}")
endfunction()

# The blocks of a text answer ("Test NAME ..." up to the next), stripped and sorted, one list
# element each.
function(sorted_blocks file out)
  file(READ ${file} text)
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REPLACE "\nTest " "\n;Test " text "${text}")
  set(blocks "")
  foreach(block IN LISTS text)
    string(STRIP "${block}" block)
    list(APPEND blocks "${block}")
  endforeach()
  list(SORT blocks)
  set(${out} "${blocks}" PARENT_SCOPE)
endfunction()

function(same_blocks a b)
  sorted_blocks(${WORK}/${a}.out blocks_a)
  sorted_blocks(${WORK}/${b}.out blocks_b)
  list(LENGTH blocks_a count)
  list(LENGTH blocks_b count_b)
  if(NOT count EQUAL count_b)
    message(FATAL_ERROR "'${a}' answers ${count} tests, '${b}' ${count_b}")
  endif()
  foreach(i RANGE 1 ${count})
    math(EXPR k "${i} - 1")
    list(GET blocks_a ${k} block_a)
    list(GET blocks_b ${k} block_b)
    if(NOT block_a STREQUAL block_b)
      string(REPLACE "<semicolon>" ";" block_a "${block_a}")
      string(REPLACE "<semicolon>" ";" block_b "${block_b}")
      message(FATAL_ERROR "'${a}' and '${b}' answer a test differently:\n${block_a}\n"
                          "--- against ---\n${block_b}")
    endif()
  endforeach()
  message(STATUS "${a} == ${b}, test by test")
endfunction()

# PART=alone: each test in a process of its own against the corpus run (minutes: one process per
# test); PART=runs: the corpus twice, --jobs 1 against 2, text and JSON. Two ctests, in parallel.
run(text-j1 --jobs 1)
if(PART STREQUAL "alone")
  run_alone(text-alone)
  same_blocks(text-j1 text-alone)
elseif(PART STREQUAL "runs")
  run(text-j1-again --jobs 1)
  run(text-j2 --jobs 2)
  run(json-j1 --json --jobs 1)
  run(json-j2 --json --jobs 2)
  same(text-j1 text-j1-again)
  same(text-j1 text-j2)
  same(json-j1 json-j2)
else()
  message(FATAL_ERROR "determinism.cmake: -DPART=runs or -DPART=alone is required")
endif()
