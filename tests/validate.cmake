# Hardware validation: CUDA generation, ptxas on every kernel, the runner's build, ptxmc compare.
set(ptxmc_validate_gen ${CMAKE_CURRENT_BINARY_DIR}/validate-gen)

# Every corpus test (and every listed mutant) to CUDA; tcgen05 tests that are not faithful get
# compile-only kernels, so ptxas still sees every tcgen05 instruction.
add_test(NAME validate/gen-cuda-corpus
  COMMAND ${CMAKE_COMMAND} -DPTXMC=$<TARGET_FILE:ptxmc> -DOUT=${ptxmc_validate_gen}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/validate/generate.cmake
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(validate/gen-cuda-corpus PROPERTIES FIXTURES_SETUP ptxmc-validate-gen)

# nvcc + ptxas on each generated kernel (device code), batched; skipped (77) without nvcc.
foreach(arch sm_90a sm_100a)
  add_test(NAME validate/ptxas-${arch}
    COMMAND bash validate/check-compile.sh ${arch} ${ptxmc_validate_gen}/${arch} 2
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(validate/ptxas-${arch} PROPERTIES FIXTURES_REQUIRED ptxmc-validate-gen
    SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()

# The runner's host code, linked with three committed kernels, lists them (no GPU needed); the
# wgmma loop kernel's four backlog kernels build with no wgmma serialized by ptxas.
add_test(NAME validate/runner-builds
  COMMAND bash -c "bash validate/check-runner.sh sm_90a \
    validate/generated/sm_90a/lt_MP_relaxed_gpu_6c2cc7a8.cu \
    validate/generated/sm_90a/lt_tma_multicast_90677302.cu \
    validate/generated/sm_90a/lt_hopper_tma_s2_loop_drop_P1_8_7a61dbdd.cu"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(validate/runner-builds PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)

# validate/generated (what the GPU machine builds) is what gen-cuda makes today.
add_test(NAME validate/generated-up-to-date
  COMMAND ${CMAKE_COMMAND} -DPTXMC=$<TARGET_FILE:ptxmc>
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/validate-uptodate
          -P ${CMAKE_CURRENT_SOURCE_DIR}/validate/uptodate.cmake
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# ptxmc compare on recorded histograms (SYNTHETIC ones until real H100 results exist).
add_test(NAME validate/compare-synthetic
  COMMAND ${CMAKE_COMMAND} -DPTXMC=$<TARGET_FILE:ptxmc>
          -DRESULTS=tests/validate/synthetic-results.json
          -DEXPECTED=tests/validate/synthetic-compare.txt -DSTATUS=1
          -P ${CMAKE_CURRENT_SOURCE_DIR}/validate/compare.cmake
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
file(GLOB ptxmc_recorded_results CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/validate/results/*/results.json)
foreach(results IN LISTS ptxmc_recorded_results)
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${results})
  get_filename_component(dir ${rel} DIRECTORY)
  get_filename_component(name ${dir} NAME)
  # Recorded GPU runs: the committed table (unsound rows included) is what compare prints;
  # a run that kept the mutants file it was generated with (mutants.txt) is compared with it.
  add_test(NAME validate/compare-${name}
    COMMAND ${CMAKE_COMMAND} -DPTXMC=$<TARGET_FILE:ptxmc> -DRESULTS=${rel}
            -DEXPECTED=${dir}/compare.md -DFORMAT=markdown "-DSTATUS=0|1"
            -DMUTANTS=${PROJECT_SOURCE_DIR}/${dir}/mutants.txt
            -P ${CMAKE_CURRENT_SOURCE_DIR}/validate/compare.cmake
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()
