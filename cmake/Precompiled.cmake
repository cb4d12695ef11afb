# Precompiled headers: the header-only libraries (CLI11, Catch2, nlohmann/json, z3++) are most
# of the compile time of a file that includes them, and CI builds the tree twice from scratch.
option(PTXMC_PCH "Precompile the heavy third-party headers of each target" ON)

# ptxmc_precompile(TARGET HEADER...): HEADERs become TARGET's precompiled header when enabled.
# Every file still includes what it uses; the PCH only makes that cheaper.
function(ptxmc_precompile target)
  if(PTXMC_PCH)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
