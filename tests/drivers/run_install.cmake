# Installs ptxmc as a user would and runs the installed binary on corpus tests it installed:
#   MODE=prefix: `cmake --install BUILD --prefix <WORK>/prefix`;
#   MODE=deb:    `cpack` builds ptxmc_<VERSION>_<arch>.deb (amd64 on x86-64), `dpkg-deb -x`
#                unpacks it into <WORK>/root (no root privileges); its Depends must name
#                libz3-4 and libfmt9.
# Nothing is built: both install the build tree as it is (build ptxmc first).
# Usage: cmake -DMODE=prefix|deb -DBUILD=<build tree> -DVERSION=<x.y.z> -DWORK=<scratch>
#   -P run_install.cmake
foreach(var MODE BUILD VERSION WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_install.cmake: -D${var}=... is required")
  endif()
endforeach()
set(problems "")
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
    WORKING_DIRECTORY ${WORK} TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "`${ARGN}` failed (${rc}):\n${out}${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "prefix")
  run(out ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix)
  set(root ${WORK}/prefix)
elseif(MODE STREQUAL "deb")
  foreach(tool dpkg-deb cpack)
    find_program(${tool}_exe ${tool})
    if(NOT ${tool}_exe)
      message(STATUS "SKIPPED: no ${tool} here")
      return()
    endif()
  endforeach()
  run(out ${cpack_exe} --config ${BUILD}/CPackConfig.cmake -B ${WORK}/cpack)
  execute_process(COMMAND dpkg --print-architecture OUTPUT_VARIABLE arch
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(deb ${WORK}/cpack/ptxmc_${VERSION}_${arch}.deb)
  if(NOT EXISTS ${deb})
    message(FATAL_ERROR "cpack did not write ${deb}:\n${out}")
  endif()
  run(depends ${dpkg-deb_exe} -f ${deb} Depends)
  if(NOT depends MATCHES "(^|, )libz3-4( |,|$)" OR NOT depends MATCHES "libfmt9")
    string(APPEND problems "  Depends does not name libz3-4 and libfmt9: ${depends}\n")
  endif()
  run(contents ${dpkg-deb_exe} -c ${deb})
  foreach(unwanted ptxmc_unit_ fuzz_ "\\.a\n")
    if(contents MATCHES "${unwanted}")
      string(APPEND problems "  the package holds files it should not (${unwanted})\n")
    endif()
  endforeach()
  # one header for host code (ptxmc/params_dump.h), no library's headers
  string(REGEX MATCHALL "/include/[^\n]*[^/\n]\n" headers "${contents}")
  foreach(h IN LISTS headers)
    if(NOT h MATCHES "^/include/ptxmc/params_dump\\.h\n$")
      string(APPEND problems "  the package holds a header it should not: ${h}")
    endif()
  endforeach()
  run(out ${dpkg-deb_exe} -x ${deb} ${WORK}/root)
  set(root ${WORK}/root/usr)
else()
  message(FATAL_ERROR "run_install.cmake: MODE is prefix or deb, not '${MODE}'")
endif()

# What is installed: the binary, its man page, the models for reference, the corpus, the docs.
foreach(f bin/ptxmc share/man/man1/ptxmc.1 share/ptxmc/model/tcgen05.cat
    share/ptxmc/model/variants/cutlass-reading.cat share/ptxmc/litmus/expected.txt
    share/doc/ptxmc/README.md share/doc/ptxmc/model/README.md share/doc/ptxmc/docs/README.md
    include/ptxmc/params_dump.h)
  if(NOT EXISTS ${root}/${f})
    string(APPEND problems "  ${f} is not installed\n")
  endif()
endforeach()
if(EXISTS ${root}/share/man/man1/ptxmc.1)
  file(READ ${root}/share/man/man1/ptxmc.1 man)
  if(NOT man MATCHES "\n\\.TH PTXMC 1 " OR NOT man MATCHES "\n\\.SS check\n"
     OR NOT man MATCHES "\\\\-\\\\-fail\\\\-on\\\\-flag")
    string(APPEND problems "  the man page lacks its title, the check section or --fail-on-flag\n")
  endif()
endif()
if(problems)
  message(FATAL_ERROR "${MODE}:\n${problems}")
endif()

# The installed binary, from a folder outside the source tree, on installed tests: one whose
# expectation holds (exit 0), the same gated on a flag another test raises (exit 1).
set(ptxmc ${root}/bin/ptxmc)
set(corpus ${root}/share/ptxmc/litmus)
function(expect status test)
  execute_process(COMMAND ${ptxmc} check --no-time ${ARGN} ${corpus}/${test}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err WORKING_DIRECTORY ${WORK}
    TIMEOUT 60)
  set(${test}_out "${out}${err}" PARENT_SCOPE)
  if(NOT rc STREQUAL "${status}")
    message(FATAL_ERROR "installed `ptxmc check ${ARGN} ${test}` exited ${rc}, not ${status}:\n"
      "${out}${err}")
  endif()
endfunction()
set(sb ptx/classic/SB+relaxed.gpu.litmus)
expect(0 ${sb})
foreach(part "Observation SB+relaxed.gpu Sometimes 1 3"
    "Expected Sometimes flags=none states=4: ok" "1 test, 1 matched, 0 mismatched")
  string(FIND "${${sb}_out}" "${part}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "installed `ptxmc check ${sb}` lacks '${part}':\n${${sb}_out}")
  endif()
endforeach()
set(l43 async/bulk-group/L43-wait_group.read+ld.litmus)
expect(1 ${l43} --fail-on-flag data-race)
string(FIND "${${l43}_out}" "raises flag data-race" at)
if(at EQUAL -1)
  message(FATAL_ERROR "installed ptxmc did not gate ${l43} on data-race:\n${${l43}_out}")
endif()
message(STATUS "ok: ${MODE}: installed under ${root}, its ptxmc checks installed tests")
