# Runs one libFuzzer target for a fixed number of runs from a fixed seed (the CI smoke test).
# Usage: cmake -DFUZZER=exe -DWORK=dir -DCORPORA="a|b" -DDICT=file -DRUNS=n -P smoke.cmake
foreach(var FUZZER WORK CORPORA DICT RUNS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "smoke.cmake: -D${var}=... is required")
  endif()
endforeach()
# libFuzzer adds what it finds to its first corpus folder: start from an empty one each time,
# so every run mutates the same seeds the same way.
string(REPLACE "|" ";" corpora "${CORPORA}")
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
set(ENV{ASAN_OPTIONS} "detect_leaks=1:allocator_may_return_null=1")
set(ENV{UBSAN_OPTIONS} "halt_on_error=1:print_stacktrace=1")
execute_process(COMMAND ${FUZZER} -runs=${RUNS} -seed=1 -max_len=4096 -timeout=60
                        -rss_limit_mb=2048 -dict=${DICT} -artifact_prefix=${WORK}/artifacts/
                        ${WORK}/corpus ${corpora}
  RESULT_VARIABLE status)
if(NOT status STREQUAL "0")
  file(GLOB found ${WORK}/artifacts/*)
  message(FATAL_ERROR "${FUZZER}: exit status ${status}; failing inputs: ${found}\n"
    "Reproduce with: ${FUZZER} <input>; then add the input to fuzz/regressions/.")
endif()
