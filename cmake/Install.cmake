# What `cmake --install` puts where (GNUInstallDirs), the man page, and the Debian package
# (CPack). The ptxmc executable is installed, and one header for host code
# (ptxmc/params_dump.h): no library, test, fuzz target or bench.
include(GNUInstallDirs)

# The man page comes from the binary's own --help texts (ptxmc and every subcommand), so it
# cannot disagree with them; it is made whenever ptxmc is linked, so `--target ptxmc` is enough
# for `cmake --install`.
set(PTXMC_MAN_PAGE ${PROJECT_BINARY_DIR}/man/ptxmc.1)
add_custom_command(TARGET ptxmc POST_BUILD
  COMMAND ${CMAKE_COMMAND} -DPTXMC=$<TARGET_FILE:ptxmc> -DOUT=${PTXMC_MAN_PAGE}
          -P ${CMAKE_CURRENT_LIST_DIR}/ManPage.cmake
  BYPRODUCTS ${PTXMC_MAN_PAGE}
  COMMENT "Writing the man page from ptxmc --help"
  VERBATIM)

install(TARGETS ptxmc RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PTXMC_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
# Header-only host code that dumps a kernel's parameter bytes for `ptxmc kernel --param-bytes`.
install(FILES include/ptxmc/params_dump.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptxmc)

# The built-in models, for reference: the binary embeds them at build time and never reads
# these copies; `--model FILE` can start from them.
install(DIRECTORY model/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ptxmc/model
  FILES_MATCHING PATTERN "*.cat")
# The litmus corpus (1.7 MB, about 600 small text files, well under 1 MB compressed): examples
# to start a test from, and with their expected.txt files a check of the installed binary
# (`ptxmc check <datadir>/ptxmc/litmus`).
install(DIRECTORY litmus/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ptxmc/litmus)

# The documents, in the tree's layout so their links to each other resolve.
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES model/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR}/model)
file(GLOB ptxmc_docs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${ptxmc_docs} DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(DIRECTORY docs/images DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

# Debian package: `cpack --config build/CPackConfig.cmake` -> ptxmc_<version>_amd64.deb.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ptxmc)
# The project has no public address yet: set these when configuring a release build.
set(PTXMC_PACKAGE_MAINTAINER "ptxmc developers <dev@ptxmc.invalid>" CACHE STRING
  "Maintainer field of the Debian package")
set(PTXMC_HOMEPAGE "" CACHE STRING "Homepage field of the Debian package (left out when empty)")
set(CPACK_PACKAGE_VENDOR "ptxmc developers")
set(CPACK_PACKAGE_CONTACT "${PTXMC_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "model checker for PTX memory-consistency litmus tests (tcgen05, async proxy, mbarriers)")
# CPack indents each line for the control file.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "ptxmc reads litmus tests and kernel protocols written in PTX (tcgen05\n"
  "tensor-core instructions, wgmma, the async proxy, mbarriers, bulk and\n"
  "tensor copies) and, with Z3, enumerates every final state the PTX memory\n"
  "model allows, compares it with the test's expectation and reports\n"
  "undefined behaviour such as data races. The model is written in the cat\n"
  "language and compiled into the binary; copies are installed for reference,\n"
  "with the litmus corpus and its expectations.")
# Debian's file name, ptxmc_<version>_<architecture>.deb; the architecture is the build
# machine's (dpkg --print-architecture): amd64 on x86-64.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
if(PTXMC_HOMEPAGE)
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PTXMC_HOMEPAGE}")
endif()
# Depends: from the binary's NEEDED entries when dpkg-shlibdeps (dpkg-dev) is there, with the
# versions the build linked; otherwise the same packages, named here (Debian 12's names).
find_program(PTXMC_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(PTXMC_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libz3-4, libfmt9, libstdc++6, libgcc-s1, libc6")
endif()
# cpack installs the build tree as it is: its install step does not first build every target
# (the tests, fuzz replays). Build ptxmc first; `cmake --install` never builds anything.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CPACK_STRIP_FILES ON) # the packaged binary only; build/ptxmc keeps its symbols
set(CPACK_SOURCE_IGNORE_FILES "/build[^/]*/;/\\\\.git/;/\\\\.cache/")
include(CPack)
