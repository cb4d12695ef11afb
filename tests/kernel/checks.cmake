# `ptxmc kernel` on the acceptance kernels: the violated properties of answers.txt, and the
# source lines of the named `// SYNC:` markers in the witnesses (CUDA lines through .loc, any
# line of an event's inlining chain).
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/answers.txt ptxmc_answer_lines REGEX "^[^#].*")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_LIST_DIR}/answers.txt)
set(ptxmc_all_properties data-race tmem-race mbarrier-misuse tmem-lifetime tcgen05-alloc-misuse
  wgmma-register-race wgmma-missing-fence completes)
foreach(line IN LISTS ptxmc_answer_lines)
  string(REPLACE "|" ";" fields "${line}")
  list(GET fields 0 name)
  list(GET fields 1 options)
  list(GET fields 2 props)
  list(GET fields 3 markers)
  list(GET fields -1 where)
  foreach(field name options props markers where)
    string(STRIP "${${field}}" ${field})
  endforeach()
  if(NOT "${PTXMC_KERNELS_PTX}" MATCHES "/${name}\\.ptx")
    continue() # not compiled here (an older toolkit)
  endif()
  # The extraction alone, in the fast tier (so the sanitizer half runs it too): for each kernel,
  # and for each mutant whose check is not in the kernel tier. A mutant differs from its kernel
  # by one instruction, and the kernel tier's check of it extracts it again in Release: its own
  # extraction under the sanitizers was 3.5 s each of CI's sanitized tier (bench/history.md).
  if(NOT (name MATCHES "--" AND where STREQUAL "ctest"))
    separate_arguments(emit_options UNIX_COMMAND "${options}")
    ptxmc_cli_test(kernels/emit/${name} TIER fast ARGS kernel --emit-litmus ${emit_options}
      ${PTXMC_KERNELS_DIR}/${name}.ptx SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=PTX |exists (true)")
    set_tests_properties(kernels/emit/${name} PROPERTIES DEPENDS kernels/ptxas/${name} TIMEOUT 60)
  endif()
  if(where STREQUAL "bench")
    continue() # minutes on 2 cores: bench/kernels.sh runs it
  endif()
  separate_arguments(options UNIX_COMMAND "${options}")
  string(REGEX REPLACE "--.*" "" base "${name}")
  string(REPLACE "-" "_" source "${base}")
  file(READ ${PROJECT_SOURCE_DIR}/tests/kernel/${source}.cu source_text)
  set(has "")
  set(lacks "")
  if(props STREQUAL "clean")
    set(status 0)
    set(lacks "violated")
  else()
    set(status 1)
    string(REPLACE "," ";" props "${props}")
    foreach(p IN LISTS ptxmc_all_properties)
      if(p IN_LIST props)
        list(APPEND has "\"${p}\": \"violated\"")
      else()
        list(APPEND lacks "\"${p}\": \"violated\"")
      endif()
    endforeach()
  endif()
  string(REPLACE "," ";" markers "${markers}")
  set(one_of "")
  foreach(marker IN LISTS markers)
    # "A or B": the witness the solver picks may name either (both are witnesses of the flag)
    string(REPLACE " or " ";" alternatives "${marker}")
    set(lines "")
    foreach(alternative IN LISTS alternatives)
      # the marker's line: newlines before "// SYNC: <marker>" at the end of a line, plus one
      string(FIND "${source_text}" "// SYNC: ${alternative}\n" at)
      if(at EQUAL -1)
        message(FATAL_ERROR
          "answers.txt: ${name}: no '// SYNC: ${alternative}' line in ${source}.cu")
      endif()
      string(SUBSTRING "${source_text}" 0 ${at} before)
      string(REGEX MATCHALL "\n" newlines "${before}")
      list(LENGTH newlines lineno)
      math(EXPR lineno "${lineno} + 1")
      # any line of an event's inlining chain: the marker is on the call of a ptx_sync.cuh
      # wrapper, inlined there ("ptx_sync.cuh:40, inlined at kernel.cu:142, ...)")
      list(APPEND lines "${source}.cu:${lineno})" "${source}.cu:${lineno},")
    endforeach()
    list(JOIN lines "^" group)
    list(APPEND one_of "${group}")
  endforeach()
  list(JOIN has "|" has)
  list(JOIN lacks "|" lacks)
  set(settings -DSTATUS=${status})
  if(has)
    list(APPEND settings "-DSTDOUT_HAS=${has}")
  endif()
  if(lacks)
    list(APPEND settings "-DSTDOUT_LACKS=${lacks}")
  endif()
  if(one_of)
    list(JOIN one_of "|" one_of)
    list(APPEND settings "-DSTDOUT_ONE_OF=${one_of}")
  endif()
  set(tier kernel)
  if(where STREQUAL "slow")
    set(tier slow) # over a minute alone, or past CI's kernel-tier budget: test.sh --full
  endif()
  ptxmc_cli_test(kernels/check/${name} TIER ${tier} ARGS kernel --format json ${options}
    ${PTXMC_KERNELS_DIR}/${name}.ptx SETTINGS ${settings})
  set_tests_properties(kernels/check/${name} PROPERTIES DEPENDS kernels/ptxas/${name})
endforeach()
# A hang guard, not a speed target: the Deadlock's mbarrier-misuse query on the hang encoding
# (unsat) takes 72 s of this kernel's 110-150 s alone, and 216 s beside the suite's longest
# tests; 300 s left too little room (bench/kernels.sh measures it).
if(TEST kernels/check/blackwell-umma-1sm--no-acc-commit)
  set_tests_properties(kernels/check/blackwell-umma-1sm--no-acc-commit PROPERTIES TIMEOUT 600)
endif()
# Which reading an answer rests on: without tcgen05.fence::after_thread_sync the tmem-race is
# the literal text's (decision Q1); the CUTLASS reading and Q1's variant say clean. Slow tier
# (about a minute on 2 cores): CI checks the default answer (kernels/check/...--no-fence-after).
if("${PTXMC_KERNELS_PTX}" MATCHES "/blackwell-umma-1sm--no-fence-after\\.ptx")
  ptxmc_cli_test(kernels/readings/blackwell-umma-1sm--no-fence-after TIER slow
    ARGS kernel --readings --param 4=128 --param 6=2 --param 5=1 --param 3=128
    ${PTXMC_KERNELS_DIR}/blackwell-umma-1sm--no-fence-after.ptx
    SETTINGS -DSTATUS=1
    "-DSTDOUT_HAS=tmem-race                    VIOLATED|Reading-dependent: what each of these readings changes from the default reading|variants/q1-acquire-wait-orders-tcgen05.cat (Q1 (9.7.18.6.3)): |tmem-race not raised|variants/cutlass-reading.cat (Q1")
endif()
# A TMA store left pending at thread exit: clean under the literal text (decision Q20), which
# gives no rule for it; the variant that asks for a wait_group before exit flags it. Slow tier
# (50 s on 2 cores): CI checks the default answer (kernels/check/...--no-store-wait).
if("${PTXMC_KERNELS_PTX}" MATCHES "/hopper-tma-wgmma--no-store-wait\\.ptx")
  ptxmc_cli_test(kernels/readings/hopper-tma-wgmma--no-store-wait TIER slow
    ARGS kernel --readings --param 3=256 ${PTXMC_KERNELS_DIR}/hopper-tma-wgmma--no-store-wait.ptx
    SETTINGS -DSTATUS=0
    "-DSTDOUT_HAS=async-pending-at-exit        holds|Reading-dependent: what each of these readings changes from the default reading|variants/q20-async-done-before-exit.cat (Q20 (9.7.10.28.1, 9.7.10.28.6.2)): async-pending-at-exit raised|Verdict: clean for this launch and bound")
endif()
# Cluster launch control: a request after a failed one is undefined (9.7.15.18), and --tiles
# needs a grid that holds the clusters the responses cancel.
if("${PTXMC_KERNELS_PTX}" MATCHES "/blackwell-clc-tiles--ask-after-failure\\.ptx")
  ptxmc_cli_test(kernels/clc/ask-after-failure TIER kernel
    ARGS kernel --tiles 3 --grid 3 ${PTXMC_KERNELS_DIR}/blackwell-clc-tiles--ask-after-failure.ptx
    SETTINGS -DSTATUS=2
    "-DSTDERR_HAS=blackwell-clc-tiles--ask-after-failure.ptx:|error: try_cancel request 3 follows a failed one|(9.7.15.18; --tiles 3 makes request 2 fail)")
endif()
if("${PTXMC_KERNELS_PTX}" MATCHES "/blackwell-clc-tiles\\.ptx")
  ptxmc_cli_test(kernels/clc/grid-too-small TIER kernel
    ARGS kernel --tiles 3 ${PTXMC_KERNELS_DIR}/blackwell-clc-tiles.ptx
    SETTINGS -DSTATUS=2
    "-DSTDERR_HAS=error: the try_cancel response 0 cancels cluster 1 of the grid, which has 1 cluster(s): give --grid with at least 2 clusters")
  ptxmc_cli_test(kernels/clc/one-tile TIER kernel
    ARGS kernel --tiles 1 ${PTXMC_KERNELS_DIR}/blackwell-clc-tiles.ptx
    SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=with --tiles 1 the first request fails|Verdict: clean")
endif()
# SARIF for code scanning: the violated property an error located at the CUDA line (.loc), the
# PTX lines related.
if("${PTXMC_KERNELS_PTX}" MATCHES "/blackwell-clc-tiles--no-slot-fence\\.ptx")
  ptxmc_cli_test(kernels/sarif/blackwell-clc-tiles--no-slot-fence TIER kernel
    ARGS kernel --format sarif --tiles 3 --grid 3
    ${PTXMC_KERNELS_DIR}/blackwell-clc-tiles--no-slot-fence.ptx
    SETTINGS -DSTATUS=1
    "-DSTDOUT_HAS=\"version\": \"2.1.0\"|\"ruleId\": \"data-race\"|\"level\": \"error\"|\"uri\": \"tests/kernel/blackwell_clc_tiles.cu\"|blackwell-clc-tiles--no-slot-fence.ptx\""
    "-DSTDOUT_LACKS=--fail-on-flag")
endif()
# The FlashAttention-4-like kernel: the correct one is clean, and reading-dependent on Q6 only:
# its epilogue writes the Q tile the last S mma read, ordered only through the o_full commit's
# arrive, a release under Q6's default; issuing the S mma over the P columns before the wait for
# the previous PV mma's commit is ordered only by the 9.4 pipelined pair tcgen05.mma (A read) ->
# tcgen05.mma (D write) (decision Q13). Its --readings runs take 35-50 s each on 2 cores: the
# correct kernel's and no-fence-before's are in the slow tier, to hold CI within its budget.
if("${PTXMC_KERNELS_PTX}" MATCHES "/blackwell-fa4-like\\.ptx")
  ptxmc_cli_test(kernels/readings/blackwell-fa4-like TIER slow
    ARGS kernel --readings --param 4=2 ${PTXMC_KERNELS_DIR}/blackwell-fa4-like.ptx
    SETTINGS -DSTATUS=0
    "-DSTDOUT_HAS=Reading-dependent: what each of these readings changes from the default reading|variants/q6-commit-arrive-relaxed.cat (Q6|): data-race|raised|Verdict: clean")
endif()
if("${PTXMC_KERNELS_PTX}" MATCHES "/blackwell-fa4-like--s-before-pv-done\\.ptx")
  # Q13's other side (kernels/check/...s-before-pv-done is the default's clean answer) under
  # that variant alone: 5 s, where --readings took 49 s of CI's kernel tier.
  ptxmc_cli_test(kernels/readings/blackwell-fa4-like--s-before-pv-done TIER kernel
    ARGS kernel --reading q13-pipeline-9-1-pairs --param 4=2
    ${PTXMC_KERNELS_DIR}/blackwell-fa4-like--s-before-pv-done.ptx
    SETTINGS -DSTATUS=1
    "-DSTDOUT_HAS=Model: variants/q13-pipeline-9-1-pairs.cat|tmem-race                    VIOLATED"
    "-DSTDOUT_LACKS=data-race                    VIOLATED|tmem-lifetime                VIOLATED")
endif()
# Without tcgen05.fence::before_thread_sync before the p_full arrive the tmem-race is the literal
# text's; the readings under which tcgen05.wait::ld / wait::st order the completed accesses
# before a later synchronization (Q11, and the CUTLASS reading) say clean.
if("${PTXMC_KERNELS_PTX}" MATCHES "/blackwell-fa4-like--no-fence-before\\.ptx")
  ptxmc_cli_test(kernels/readings/blackwell-fa4-like--no-fence-before TIER slow
    ARGS kernel --readings --param 4=2
    ${PTXMC_KERNELS_DIR}/blackwell-fa4-like--no-fence-before.ptx
    SETTINGS -DSTATUS=1
    "-DSTDOUT_HAS=tmem-race                    VIOLATED|Reading-dependent: what each of these readings changes from the default reading|variants/q11-wait-orders-before-sync.cat (Q11|tmem-race not raised|variants/cutlass-reading.cat (Q1")
endif()
# Two tcgen05.st.32x32b.x16 of disjoint columns of one accumulator write different slices of it:
# were they one location, the 9.0/9.1 pipelined pairs (Q13, no st -> st) would see two unordered
# writes of it.
if("${PTXMC_KERNELS_PTX}" MATCHES "/blackwell-fa4-like--p-in-two-stores\\.ptx")
  ptxmc_cli_test(kernels/readings/blackwell-fa4-like--p-in-two-stores TIER kernel
    ARGS kernel --reading q13-pipeline-9-1-pairs --param 4=2
    ${PTXMC_KERNELS_DIR}/blackwell-fa4-like--p-in-two-stores.ptx
    SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=Verdict: clean" "-DSTDOUT_LACKS=VIOLATED")
endif()
# A flag's witness is the same whether or not --readings is checked, and on every run: the
# smallest one some execution allows, not the first the solver returned. With the first one
# (what `ptxmc check` prints) these two mutants' mbarrier-misuse and data-race witnesses
# differed with --readings.
foreach(ptxmc_same IN ITEMS "blackwell-clc-tiles--no-empty-wait|--tiles|3|--grid|3"
                            "blackwell-clc-tiles--no-expect-tx|--tiles|3|--grid|3")
  string(REPLACE "|" ";" ptxmc_same_args "${ptxmc_same}")
  list(POP_FRONT ptxmc_same_args ptxmc_same_name)
  if("${PTXMC_KERNELS_PTX}" MATCHES "/${ptxmc_same_name}\\.ptx")
    list(JOIN ptxmc_same_args "|" ptxmc_same_args)
    add_test(NAME kernels/same-witnesses/${ptxmc_same_name}
      COMMAND ${CMAKE_COMMAND} -DPTXMC=$<TARGET_FILE:ptxmc>
              "-DARGS=${ptxmc_same_args}|${PTXMC_KERNELS_DIR}/${ptxmc_same_name}.ptx"
              -DWORK=${CMAKE_CURRENT_BINARY_DIR}/same-witnesses/${ptxmc_same_name}
              -P ${PTXMC_TEST_DRIVERS}/same_witnesses.cmake
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(kernels/same-witnesses/${ptxmc_same_name} PROPERTIES
      DEPENDS kernels/ptxas/${ptxmc_same_name} TIMEOUT 600)
    ptxmc_tier(kernel kernels/same-witnesses/${ptxmc_same_name})
  endif()
endforeach()
