# The acceptance CUDA kernels of `ptxmc kernel` (tests/kernels/README.md): each kernel and mutant
# of kernels.txt compiled by the toolkit's nvcc to ${CMAKE_BINARY_DIR}/tests/kernels/NAME.ptx at
# build time (target ptxmc_kernels_ptx, part of `all`), and per PTX file the ctests that ptxas
# accepts it and that its synchronization comes from the source's `// SYNC:` lines. Without nvcc
# (CUDA_NVCC, $CUDA_PATH/bin, /usr/local/cuda/bin, PATH) nothing is added.
find_program(PTXMC_NVCC NAMES nvcc
  HINTS ${CUDA_NVCC} $ENV{CUDA_NVCC} $ENV{CUDA_PATH}/bin $ENV{CUDA_HOME}/bin /usr/local/cuda/bin
  NO_CACHE)
if(CUDA_NVCC AND NOT IS_DIRECTORY "${CUDA_NVCC}")
  set(PTXMC_NVCC ${CUDA_NVCC})
endif()
if(NOT PTXMC_NVCC)
  message(STATUS "tests/kernels: nvcc not found, the acceptance kernels are not compiled")
  return()
endif()
get_filename_component(ptxmc_cuda_bin ${PTXMC_NVCC} DIRECTORY)
find_program(PTXMC_PTXAS NAMES ptxas HINTS ${ptxmc_cuda_bin} /usr/local/cuda/bin NO_CACHE)
# An older toolkit that lacks a target (sm_100a needs CUDA 12.8) skips those kernels.
execute_process(COMMAND ${PTXMC_NVCC} --list-gpu-code OUTPUT_VARIABLE ptxmc_nvcc_codes
  RESULT_VARIABLE ptxmc_nvcc_status ERROR_QUIET)
if(NOT ptxmc_nvcc_status EQUAL 0)
  message(STATUS "tests/kernels: ${PTXMC_NVCC} --list-gpu-code failed, kernels not compiled")
  return()
endif()
string(REGEX MATCHALL "sm_[0-9]+" ptxmc_nvcc_codes "${ptxmc_nvcc_codes}")
set(PTXMC_KERNELS_DIR ${CMAKE_BINARY_DIR}/tests/kernels)
set(PTXMC_KERNELS_PTX "")

# ptxmc_kernel_ptx(NAME SOURCE ARCH [MUTANT M]): NAME.ptx from SOURCE (relative to this folder)
# with -arch=ARCH -ptx -lineinfo -O3 -DPTXMC_MUTANT=M, and the test kernels/ptxas/NAME.
function(ptxmc_kernel_ptx name source arch)
  cmake_parse_arguments(arg "" "MUTANT" "" ${ARGN})
  if(NOT arg_MUTANT)
    set(arg_MUTANT 0)
  endif()
  set(src ${PROJECT_SOURCE_DIR}/tests/kernels/${source})
  set(ptx ${PTXMC_KERNELS_DIR}/${name}.ptx)
  add_custom_command(OUTPUT ${ptx}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PTXMC_KERNELS_DIR}
    COMMAND ${PTXMC_NVCC} -arch=${arch} -ptx -lineinfo -O3 -DPTXMC_MUTANT=${arg_MUTANT}
            ${src} -o ${ptx}
    DEPENDS ${src} ${PROJECT_SOURCE_DIR}/tests/kernels/ptx_sync.cuh
    COMMENT "nvcc -arch=${arch} -ptx: ${name}.ptx"
    VERBATIM)
  set(PTXMC_KERNELS_PTX ${PTXMC_KERNELS_PTX} ${ptx} PARENT_SCOPE)
  if(PTXMC_PTXAS)
    add_test(NAME kernels/ptxas/${name}
      COMMAND ${PTXMC_PTXAS} -arch=${arch} ${ptx} -o ${PTXMC_KERNELS_DIR}/${name}.cubin)
    set_tests_properties(kernels/ptxas/${name} PROPERTIES TIMEOUT 120)
  endif()
  # Each synchronization instruction's .loc (inlined_at) is a `// SYNC:` line of the source.
  add_test(NAME kernels/markers/${name}
    COMMAND ${CMAKE_COMMAND} -DPTX=${ptx} -DSOURCE=${src}
            -P ${PROJECT_SOURCE_DIR}/tests/kernels/check_markers.cmake)
  set_tests_properties(kernels/markers/${name} PROPERTIES TIMEOUT 120)
endfunction()

# One call per line of kernels.txt: NAME SOURCE ARCH MUTANT.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/tests/kernels/kernels.txt)
file(STRINGS ${PROJECT_SOURCE_DIR}/tests/kernels/kernels.txt ptxmc_kernel_lines
  REGEX "^[^#].*")
foreach(line IN LISTS ptxmc_kernel_lines)
  string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
  list(LENGTH fields n)
  if(NOT n EQUAL 4)
    message(FATAL_ERROR "tests/kernels/kernels.txt: expected NAME SOURCE ARCH MUTANT: ${line}")
  endif()
  list(GET fields 0 name)
  list(GET fields 1 source)
  list(GET fields 2 arch)
  list(GET fields 3 mutant)
  string(REGEX REPLACE "[af]$" "" base_arch ${arch})
  if(NOT base_arch IN_LIST ptxmc_nvcc_codes)
    list(APPEND ptxmc_kernels_skipped ${name})
    continue()
  endif()
  ptxmc_kernel_ptx(${name} ${source} ${arch} MUTANT ${mutant})
endforeach()
if(ptxmc_kernels_skipped)
  list(LENGTH ptxmc_kernels_skipped n)
  message(STATUS "tests/kernels: ${n} kernels need a target ${PTXMC_NVCC} lacks: skipped")
endif()
add_custom_target(ptxmc_kernels_ptx ALL DEPENDS ${PTXMC_KERNELS_PTX})
include(${CMAKE_CURRENT_LIST_DIR}/checks.cmake)
