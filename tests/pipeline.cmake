# One pipeline (app/cli/Pipeline.hpp): every subcommand that reads tests takes --model, --reading,
# --unroll, --timeout, --memory-limit (--rlimit and --engine where it checks) and honours them.
# Each test expects what only the option gives: the default answer differs, so an option that
# were ignored fails it. `check` has its own elsewhere (bounded/, control/, cli/).
set(ptxmc_loop ${CMAKE_CURRENT_SOURCE_DIR}/control/count-spins.litmus) # --unroll 2: Unknown, 4: found
set(ptxmc_forbid tests/models/forbid-everything.cat)                   # every answer Never, 0 states
set(ptxmc_q1 q1-acquire-wait-orders-tcgen05) # a reading: L34a ($ptxmc_q1_test) becomes Never
set(ptxmc_mp litmus/ptx/classic/MP+rel+acq.cluster.litmus) # forbidden; --derive-mutants finds one
set(ptxmc_sb ${ptxmc_model_probe})                         # quick; --rlimit 1 stops Z3 on it

# 80 threads storing to x: Z3 passes 100 MiB within a second (without the limit it runs for
# minutes); one CTA and .cta stores (no weakening for fences), or four CTAs (gen-cuda's limit).
function(ptxmc_write_stores file threads per_cta scope)
  math(EXPR last "${threads} - 1")
  set(header "")
  set(row "")
  foreach(i RANGE 0 ${last})
    math(EXPR cta "${i} / ${per_cta}")
    math(EXPR value "${i} + 1")
    string(APPEND header " P${i}@cta ${cta},gpu 0 |")
    string(APPEND row " st.relaxed.${scope} x, ${value} |")
  endforeach()
  string(REGEX REPLACE "\\|$" ";" header "${header}")
  string(REGEX REPLACE "\\|$" ";" row "${row}")
  file(WRITE ${file} "PTX Stores${threads}\n{ x = 0; }\n${header}\n${row}\nexists (x == 1)\n")
endfunction()
set(ptxmc_big ${CMAKE_CURRENT_BINARY_DIR}/pipeline/Stores80cta.litmus)
ptxmc_write_stores(${ptxmc_big} 80 80 cta)
set(ptxmc_big_ctas ${CMAKE_CURRENT_BINARY_DIR}/pipeline/Stores80.litmus)
ptxmc_write_stores(${ptxmc_big_ctas} 80 20 gpu)

# check: the options bounded/, control/ and cli/ do not cover yet.
ptxmc_cli_test(pipeline/check/model ARGS check --no-time --model ${ptxmc_forbid} ${ptxmc_sb}
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=Observation SB+relaxed.gpu Never 0 0")
ptxmc_cli_test(pipeline/check/reading ARGS check --no-time --reading ${ptxmc_q1} ${ptxmc_q1_test}
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=Expected Never flags=tmem-race states=2: ok")
# --rlimit binds Z3 only: the explicit engine answers.
ptxmc_cli_test(pipeline/check/engine ARGS check --no-time --engine enumerate --rlimit 1 ${ptxmc_sb}
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=States 4" -DSTDOUT_LACKS=Unknown)

# explain: the limits stop the check behind the explanation.
ptxmc_cli_test(pipeline/explain/unroll ARGS explain --unroll 4 ${ptxmc_loop}
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=Allowed: (P1:c == 5)")
ptxmc_cli_test(pipeline/explain/timeout ARGS explain --timeout 0.001 ${ptxmc_w8}
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=Unknown: timeout: the test ran past --timeout 0.001 s")
ptxmc_cli_test(pipeline/explain/memory-limit ARGS explain --memory-limit 100 ${ptxmc_big}
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=Unknown: memory limit:")
ptxmc_cli_test(pipeline/explain/rlimit ARGS explain --rlimit 1 ${ptxmc_sb}
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=Unknown: resource limit: a Z3 query used up --rlimit 1")
ptxmc_cli_test(pipeline/explain/no-engine ARGS explain --help
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=No --engine: witnesses" "-DSTDOUT_LACKS=--engine NAME")

# fences: the test as written and every weakening.
ptxmc_cli_test(pipeline/fences/unroll ARGS fences --unroll 4 ${ptxmc_loop}
  SETTINGS -DSTATUS=0
  "-DSTDOUT_HAS=Test count-spins (${ptxmc_loop}) under tcgen05.cat (built-in): Sometimes flags=none states=5")
ptxmc_cli_test(pipeline/fences/timeout ARGS fences --timeout 0.001 ${ptxmc_w8}
  SETTINGS -DSTATUS=1
  "-DSTDERR_HAS=Unknown (timeout: the test ran past --timeout 0.001 s): no weakening compared")
ptxmc_cli_test(pipeline/fences/memory-limit ARGS fences --memory-limit 100 ${ptxmc_big}
  SETTINGS -DSTATUS=1 "-DSTDERR_HAS=Unknown (memory limit:")
ptxmc_cli_test(pipeline/fences/rlimit ARGS fences --rlimit 1 ${ptxmc_sb}
  SETTINGS -DSTATUS=1 "-DSTDERR_HAS=Unknown (resource limit:")
ptxmc_cli_test(pipeline/fences/model ARGS fences --model ${ptxmc_forbid} ${ptxmc_sb}
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=under ${ptxmc_forbid}: Never flags=none states=0")
ptxmc_cli_test(pipeline/fences/reading ARGS fences --reading ${ptxmc_q1} ${ptxmc_q1_test}
  SETTINGS -DSTATUS=0
  "-DSTDOUT_HAS=under variants/${ptxmc_q1}.cat: Never flags=tmem-race states=2")
ptxmc_cli_test(pipeline/fences/engine ARGS fences --engine enumerate --rlimit 1 ${ptxmc_sb}
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=built-in): Sometimes flags=none states=4")

# axioms: a check a limit stopped fails the run; a test reaching the unroll bound is a warning.
ptxmc_cli_test(pipeline/axioms/unroll ARGS axioms --first-change --unroll 4 ${ptxmc_loop}
  SETTINGS -DSTATUS=1 "-DSTDERR_HAS=12 axiom(s) change no verdict" "-DSTDERR_LACKS=unroll bound")
ptxmc_cli_test(pipeline/axioms/timeout ARGS axioms --first-change --timeout 0.001 ${ptxmc_w8}
  SETTINGS -DSTATUS=1 "-DSTDERR_HAS=13 check(s) stopped by a limit")
ptxmc_cli_test(pipeline/axioms/memory-limit ARGS axioms --first-change --memory-limit 100
  ${ptxmc_big} SETTINGS -DSTATUS=1 "-DSTDERR_HAS=13 check(s) stopped by a limit")
ptxmc_cli_test(pipeline/axioms/rlimit ARGS axioms --first-change --rlimit 1 ${ptxmc_sb}
  SETTINGS -DSTATUS=1 "-DSTDERR_HAS=13 check(s) stopped by a limit")
ptxmc_cli_test(pipeline/axioms/model ARGS axioms --first-change --model ${ptxmc_forbid} ${ptxmc_sb}
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=Nothing: some test changes without it")
ptxmc_cli_test(pipeline/axioms/reading ARGS axioms --first-change --reading ${ptxmc_q1}
  ${ptxmc_q1_test}
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=Tensor-Memory-Order: some test changes without it")
ptxmc_cli_test(pipeline/axioms/engine ARGS axioms --first-change --engine enumerate --rlimit 1
  ${ptxmc_sb} SETTINGS -DSTATUS=1 "-DSTDERR_LACKS=stopped by a limit")

# compare: one-test results files (invented counts) naming the tests above.
function(ptxmc_write_results file test observed values)
  file(WRITE ${file} "{\"device\": \"none\", \"tests\": [{\"name\": \"t\", \"file\": \"${test}\", "
    "\"status\": \"ok\", \"observed\": [${observed}], "
    "\"histogram\": [{\"values\": [${values}], \"count\": 10, \"satisfies\": true}]}]}\n")
endfunction()
set(ptxmc_results ${CMAKE_CURRENT_BINARY_DIR}/pipeline)
ptxmc_write_results(${ptxmc_results}/loop.json ${ptxmc_loop} "\"P1:c\"" 1)
ptxmc_write_results(${ptxmc_results}/w8.json ${ptxmc_w8} "\"P0:r0\", \"P0:r1\"" "0, 0")
ptxmc_write_results(${ptxmc_results}/big.json ${ptxmc_big} "\"x\"" 1)
ptxmc_write_results(${ptxmc_results}/sb.json ${ptxmc_sb} "\"P0:r0\", \"P1:r1\"" "0, 0")
ptxmc_write_results(${ptxmc_results}/q1.json ${ptxmc_q1_test} "\"P1:r0\"" 1)
ptxmc_cli_test(pipeline/compare/unroll ARGS compare --unroll 4 ${ptxmc_results}/loop.json
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=t: unseen (model Sometimes")
ptxmc_cli_test(pipeline/compare/timeout ARGS compare --timeout 0.001 ${ptxmc_results}/w8.json
  SETTINGS -DSTATUS=0
  "-DSTDOUT_HAS=model: Unknown (timeout: the test ran past --timeout 0.001 s)")
ptxmc_cli_test(pipeline/compare/memory-limit ARGS compare --memory-limit 100
  ${ptxmc_results}/big.json SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=model: Unknown (memory limit:")
ptxmc_cli_test(pipeline/compare/rlimit ARGS compare --rlimit 1 ${ptxmc_results}/sb.json
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=model: Unknown (resource limit:")
ptxmc_cli_test(pipeline/compare/engine ARGS compare --engine enumerate --rlimit 1
  ${ptxmc_results}/sb.json SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=t: seen (model Sometimes")
ptxmc_cli_test(pipeline/compare/reading ARGS compare --reading ${ptxmc_q1} ${ptxmc_results}/q1.json
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=t: undefined (model Never" -DSTDERR_LACKS=warning)
# The answers are judged against expected.txt as check judges them: under this model the
# observed outcome is unsound, and the answer is not the one the corpus records.
ptxmc_cli_test(pipeline/compare/model ARGS compare --model ${ptxmc_forbid} ${ptxmc_results}/sb.json
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=UNSOUND P0:r0=0; P1:r1=0;"
  "-DSTDERR_HAS=${ptxmc_sb}: warning: the model's answer Never flags=none states=0 differs from litmus/expected.txt, which records Sometimes flags=none states=4")
ptxmc_cli_test(pipeline/compare/expectation-matches ARGS compare ${ptxmc_results}/sb.json
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=t: seen (model Sometimes" -DSTDERR_LACKS=warning)

# diff: the two models are its own --model options; the rest is the pipeline's.
set(ptxmc_diff diff --model model/tcgen05.cat --model variants/${ptxmc_q1}.cat)
ptxmc_cli_test(pipeline/diff/unroll ARGS ${ptxmc_diff} --unroll 4 ${ptxmc_loop}
  SETTINGS -DSTATUS=0 "-DSTDERR_HAS=1 test, 0 differ, 1 agrees, 0 unknown")
ptxmc_cli_test(pipeline/diff/timeout ARGS ${ptxmc_diff} --timeout 0.001 ${ptxmc_w8}
  SETTINGS -DSTATUS=1
  "-DSTDERR_HAS=Unknown under model/tcgen05.cat (timeout: the test ran past --timeout 0.001 s)")
ptxmc_cli_test(pipeline/diff/memory-limit ARGS ${ptxmc_diff} --memory-limit 100 ${ptxmc_big}
  SETTINGS -DSTATUS=1 "-DSTDERR_HAS=Unknown under model/tcgen05.cat (memory limit:")
ptxmc_cli_test(pipeline/diff/rlimit ARGS ${ptxmc_diff} --rlimit 1 ${ptxmc_sb}
  SETTINGS -DSTATUS=1 "-DSTDERR_HAS=Unknown under model/tcgen05.cat (resource limit:")
ptxmc_cli_test(pipeline/diff/engine ARGS ${ptxmc_diff} --engine enumerate --rlimit 1 ${ptxmc_sb}
  SETTINGS -DSTATUS=0 "-DSTDERR_HAS=1 test, 0 differ, 1 agrees")
ptxmc_cli_test(pipeline/diff/no-reading ARGS diff --help
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=No --reading: both sides are --model options"
  "-DSTDOUT_LACKS=--reading NAME")

# patterns: the document's answers (the built-in model and its readings: no --model).
ptxmc_cli_test(pipeline/patterns/unroll ARGS patterns --unroll 4 ${ptxmc_loop}
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=Answer under the built-in model: **Sometimes flags=none states=5**")
ptxmc_cli_test(pipeline/patterns/timeout ARGS patterns --timeout 0.001 ${ptxmc_w8}
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=**Unknown: timeout: the test ran past --timeout 0.001 s**")
ptxmc_cli_test(pipeline/patterns/memory-limit ARGS patterns --memory-limit 100 ${ptxmc_big}
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=**Unknown: memory limit:")
ptxmc_cli_test(pipeline/patterns/rlimit ARGS patterns --rlimit 1 ${ptxmc_sb}
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=**Unknown: resource limit:")
ptxmc_cli_test(pipeline/patterns/engine ARGS patterns --engine enumerate --rlimit 1 ${ptxmc_sb}
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=**Sometimes flags=none states=4**")
ptxmc_cli_test(pipeline/patterns/no-model ARGS patterns --help
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=No --model or --reading: the document is the built-in"
  "-DSTDOUT_LACKS=--model MODEL")

# gen-cuda: --derive-mutants checks with the pipeline (tests with loops are refused: no --unroll).
function(ptxmc_derive_test name)
  cmake_parse_arguments(PARSE_ARGV 1 derive "" "" "ARGS;HAS")
  set(out ${CMAKE_CURRENT_BINARY_DIR}/pipeline/${name})
  ptxmc_cli_test(pipeline/gen-cuda/${name} ARGS gen-cuda -o ${out} --derive-mutants ${out}.txt
    ${derive_ARGS} SETTINGS -DSTATUS=0 -DOUTPUT_FILE=${out}.txt "-DOUTPUT_FILE_HAS=${derive_HAS}")
endfunction()
ptxmc_derive_test(timeout ARGS --timeout 0.001 ${ptxmc_mp}
  HAS "Unknown (timeout: the test ran past --timeout 0.001 s): no mutant derived")
ptxmc_derive_test(memory-limit ARGS --memory-limit 100 ${ptxmc_big_ctas}
  HAS "Unknown (memory limit:")
ptxmc_derive_test(rlimit ARGS --rlimit 1 ${ptxmc_mp} HAS "Unknown (resource limit:")
ptxmc_derive_test(model ARGS --model ${ptxmc_forbid} ${ptxmc_mp}
  HAS "no mutant allows the weak outcome")
ptxmc_derive_test(reading ARGS --reading ${ptxmc_q1} ${ptxmc_q1_test}
  HAS "L34a-cutlass-acc-stale.litmus relax:")
ptxmc_derive_test(engine ARGS --engine enumerate --rlimit 1 ${ptxmc_mp}
  HAS "MP+rel+acq.cluster.litmus relax:P0:1")
# A mutant the hardware survives first: on this Hopper wgmma ring the producer's dropped empty
# wait and the consumer's dropped full wait allow the weak outcome with mbarrier-misuse (they
# failed every launch on the H100); the dropped wgmma.wait_group allows it with a data race
# only. When every mutant misuses (here the one relax), it is taken and marked.
ptxmc_derive_test(survivable ARGS litmus/kernels/hopper-tma/hopper-tma-s1.litmus
  HAS "hopper-tma-s1.litmus drop:P1:4  # model: Sometimes\n")
ptxmc_derive_test(may-trap ARGS litmus/async/mbarrier/arrive.noComplete-completes.litmus
  HAS "arrive.noComplete-completes.litmus relax:P1:0  # model: Sometimes, may trap the launch\n")
ptxmc_cli_test(pipeline/gen-cuda/no-unroll ARGS gen-cuda --help
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=No --unroll: tests with loops" "-DSTDOUT_LACKS=--unroll N")

# matrix and differential generate their tests (straight-line code: no --unroll). One matrix
# run is seconds: --timeout makes every cell Unknown at once.
ptxmc_cli_test(pipeline/matrix/timeout-and-reading ARGS matrix --format json --jobs 2
  --timeout 0.001 --reading ${ptxmc_q1}
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=\"model\": \"variants/${ptxmc_q1}.cat\""
  "-DSTDERR_HAS=: observation Unknown")
ptxmc_cli_test(pipeline/matrix/model ARGS matrix --model ptx.cat
  SETTINGS -DSTATUS=2 "-DSTDERR_HAS=ptx.cat: the model has no relation definition")
ptxmc_cli_test(pipeline/matrix/no-unroll ARGS matrix --help
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=No --unroll: the cells" "-DSTDOUT_LACKS=--unroll N")
ptxmc_cli_test(pipeline/differential/timeout ARGS differential --seed 1 --count 2 --timeout 0.001
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=seed 1: skipped: timeout: the test ran past --timeout 0.001 s")
ptxmc_cli_test(pipeline/differential/rlimit ARGS differential --seed 1 --count 2 --rlimit 1
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=seed 1: skipped: resource limit:")
ptxmc_cli_test(pipeline/differential/reading ARGS differential --count 1 --reading no-such-one
  SETTINGS -DSTATUS=2 -DSTDERR_HAS=variants/no-such-one.cat)
ptxmc_cli_test(pipeline/differential/no-engine ARGS differential --help
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=No --engine: every test is checked by both engines"
  "-DSTDOUT_LACKS=--engine NAME")

# The tests on the 80-thread file stop at the memory limit; without it they would hang.
get_property(ptxmc_pipeline_tests DIRECTORY PROPERTY TESTS)
list(FILTER ptxmc_pipeline_tests INCLUDE REGEX "^pipeline/")
set_tests_properties(${ptxmc_pipeline_tests} PROPERTIES TIMEOUT 60)
