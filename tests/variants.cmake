# The corpus under each variant model (expected.<variant>.txt overrides expected.txt): every
# one-rule test, plus the kernel protocols that expected.<variant>.txt names (the others take
# seconds each and a reading that flips none of them need not re-check them all).
file(GLOB ptxmc_variant_models CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/model/variants
  ${PROJECT_SOURCE_DIR}/model/variants/*.cat)
list(SORT ptxmc_variant_models)
foreach(model IN LISTS ptxmc_variant_models)
  get_filename_component(name ${model} NAME_WLE)
  set(kernel_tests)
  set(variant_file ${PROJECT_SOURCE_DIR}/litmus/expected.${name}.txt)
  if(EXISTS ${variant_file})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${variant_file})
    file(STRINGS ${variant_file} lines REGEX "^kernels/")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "[ \t].*" "" path "${line}")
      list(APPEND kernel_tests litmus/${path})
    endforeach()
  endif()
  add_test(NAME variant/${name}
    COMMAND ptxmc check --no-time --model model/variants/${model} ${ptxmc_unit_corpus}
            ${kernel_tests}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()

# Every reading of the one-rule corpus from one encoding (check --readings, the readings as
# assumption literals) held to what the expectation files record under it: the answers the
# variant/* suites above check model by model.
add_test(NAME readings/corpus-strict
  COMMAND ptxmc check --no-time --readings --strict ${ptxmc_unit_corpus}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# The same with every closure lemma propagated lazily (the default keeps small tests' lemmas as
# clauses): the readings a test depends on are found in the propagator's lemmas too.
add_test(NAME readings/corpus-strict-lazy
  COMMAND ptxmc check --no-time --readings --strict --closures lazy ${ptxmc_unit_corpus}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# ptx.cat alone (no tcgen05 layer: hooks.cat keeps its empty defaults) answers every test of
# the generic-proxy suites as the default model does: tcgen05.cat only adds to it.
add_test(NAME model/ptx.cat-alone
  COMMAND ptxmc check --no-time --model model/ptx.cat litmus/ptx
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
