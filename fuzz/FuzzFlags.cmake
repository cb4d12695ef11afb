# Compile flags of a PTXMC_FUZZ build: every target gets both sanitizers; coverage feedback goes
# only to the code the fuzz targets run (fuzz/CMakeLists.txt).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "PTXMC_FUZZ needs clang (libFuzzer): configure with the 'fuzz' preset or "
                      "-DCMAKE_CXX_COMPILER=clang++-14")
endif()
# No recovery from UB: a report must stop the run so libFuzzer saves the input.
add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)
