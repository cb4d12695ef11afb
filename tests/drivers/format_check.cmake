# The style test: every C++ source and header is as .clang-format lays it out.
# Usage: cmake -DCLANG_FORMAT=<clang-format> -DROOT=<source tree> -P format_check.cmake
if(NOT CLANG_FORMAT)
  message(FATAL_ERROR "clang-format not found: scripts/install-deps.sh installs clang-format-14")
endif()
file(GLOB_RECURSE sources RELATIVE ${ROOT}
  ${ROOT}/src/*.cpp ${ROOT}/src/*.hpp ${ROOT}/encoder/*.cpp ${ROOT}/encoder/*.hpp
  ${ROOT}/app/*.cpp ${ROOT}/app/*.hpp
  ${ROOT}/tests/*.cpp ${ROOT}/tests/*.hpp ${ROOT}/fuzz/*.cpp ${ROOT}/validate/*.cpp
  ${ROOT}/validate/*.hpp ${ROOT}/validate/*.cu ${ROOT}/validate/*.cuh ${ROOT}/include/*.h)
# Generated kernels are laid out by their generator, not by hand.
list(FILTER sources EXCLUDE REGEX "^validate/generated/")
list(SORT sources)
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${sources}
  WORKING_DIRECTORY ${ROOT} RESULT_VARIABLE status ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${err}\nReformat with: clang-format -i <file> (config: .clang-format)")
endif()
list(LENGTH sources n)
message(STATUS "ok: ${n} files formatted")
