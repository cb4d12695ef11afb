# docs/architecture.md is generated from PTXMC_LAYERS (CMakeLists.txt) and docs/architecture.md.in
# by scripts/architecture.py: it fails when the page is stale, leaves out a folder of the layers,
# or cites a file or function the tree does not have. Reads the source tree only: no build needed.
find_program(PTXMC_PYTHON3 NAMES python3 REQUIRED)
add_test(NAME docs/architecture-up-to-date
  COMMAND ${PTXMC_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/architecture.py --check)
set_tests_properties(docs/architecture-up-to-date PROPERTIES LABELS "fast" TIMEOUT 60)
