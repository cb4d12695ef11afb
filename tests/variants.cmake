# The whole corpus under each variant model (expected.<variant>.txt overrides expected.txt).
file(GLOB ptxmc_variant_models CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/model/variants
  ${PROJECT_SOURCE_DIR}/model/variants/*.cat)
list(SORT ptxmc_variant_models)
foreach(model IN LISTS ptxmc_variant_models)
  get_filename_component(name ${model} NAME_WLE)
  add_test(NAME variant/${name}
    COMMAND ptxmc check --no-time --model model/variants/${model} litmus
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()
