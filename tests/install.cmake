# Installing (cmake/Install.cmake): `cmake --install` into a scratch prefix, and the Debian
# package built by cpack and unpacked with dpkg-deb into a scratch root; in both, the installed
# ptxmc checks an installed corpus test. Neither rebuilds anything: they install the build tree.
foreach(mode prefix deb)
  add_test(NAME install/${mode}
    COMMAND ${CMAKE_COMMAND} -DMODE=${mode} -DBUILD=${PROJECT_BINARY_DIR}
            -DVERSION=${PROJECT_VERSION} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/install-${mode}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/run_install.cmake)
  set_tests_properties(install/${mode} PROPERTIES TIMEOUT 120 LABELS install
    SKIP_REGULAR_EXPRESSION "SKIPPED:")
endforeach()
