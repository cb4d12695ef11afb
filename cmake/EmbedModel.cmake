# Compiles the model/ folder into the binary so `ptxmc` runs from anywhere.
function(ptxmc_embed_model OUT_VAR MODEL_DIR)
  file(GLOB_RECURSE model_files CONFIGURE_DEPENDS RELATIVE ${MODEL_DIR} ${MODEL_DIR}/*.cat)
  list(SORT model_files)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/EmbeddedModel.cpp)
  set(abs_files)
  foreach(f IN LISTS model_files)
    list(APPEND abs_files ${MODEL_DIR}/${f})
  endforeach()
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DMODEL_DIR=${MODEL_DIR} -DOUT=${out}
            -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedModelScript.cmake
    DEPENDS ${abs_files} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedModelScript.cmake
    COMMENT "Embedding model/*.cat")
  set(${OUT_VAR} ${out} PARENT_SCOPE)
endfunction()
