# Corpus suites: one ctest per folder of litmus/ holding tests, the expected.txt check, tests/bad.
set(PTXMC_CORPUS_DIR ${PROJECT_SOURCE_DIR}/litmus)
file(GLOB_RECURSE ptxmc_corpus_files CONFIGURE_DEPENDS RELATIVE ${PTXMC_CORPUS_DIR}
  ${PTXMC_CORPUS_DIR}/*.litmus)
list(SORT ptxmc_corpus_files)

# Folders (relative to litmus/, "." for litmus/ itself) that directly hold .litmus files.
set(ptxmc_corpus_dirs)
foreach(file IN LISTS ptxmc_corpus_files)
  get_filename_component(dir ${file} DIRECTORY)
  if(dir STREQUAL "")
    set(dir .)
  endif()
  list(APPEND ptxmc_corpus_dirs ${dir})
endforeach()
list(REMOVE_DUPLICATES ptxmc_corpus_dirs)

foreach(dir IN LISTS ptxmc_corpus_dirs)
  # `ptxmc check FOLDER` recurses; a folder with test subfolders passes only its own files,
  # so that every test runs in exactly one suite.
  set(nested FALSE)
  foreach(other IN LISTS ptxmc_corpus_dirs)
    string(FIND "${other}" "${dir}/" prefix_at) # not MATCHES: folder names may hold '+' or '.'
    if(NOT other STREQUAL dir AND (dir STREQUAL "." OR prefix_at EQUAL 0))
      set(nested TRUE)
    endif()
  endforeach()
  set(args)
  if(nested)
    foreach(file IN LISTS ptxmc_corpus_files)
      get_filename_component(file_dir ${file} DIRECTORY)
      if((file_dir STREQUAL "" AND dir STREQUAL ".") OR file_dir STREQUAL dir)
        list(APPEND args litmus/${file})
      endif()
    endforeach()
  elseif(dir STREQUAL ".")
    set(args litmus)
  else()
    set(args litmus/${dir})
  endif()
  # Both engines run every corpus test: their states, observations and flags must agree,
  # and the answer must match expected.txt. Kernel protocols (litmus/kernels/) are beyond the
  # explicit engine's enumeration (minutes per test): docs/patterns-up-to-date checks each of
  # them against expected.txt with Z3 while it regenerates docs/patterns.md.
  if(dir MATCHES "^kernels(/|$)")
    continue()
  endif()
  set(engine both)
  add_test(NAME corpus/${dir} COMMAND ptxmc check --no-time --engine ${engine} ${args}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  if(dir STREQUAL "control")
    # The sanitized run takes this one instead of corpus/control: the explicit engine spends
    # 17 s on four lock and loop tests there in Release and seven minutes under ASan, repeating
    # code paths the other corpus suites sanitize already; Z3 covers every test in seconds.
    add_test(NAME corpus-z3/${dir} COMMAND ptxmc check --no-time --engine z3 ${args}
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endif()
endforeach()

# The top folders of litmus/ other than kernels/: the one-rule tests, fast enough to re-check
# many times (axiom deletion, every variant model).
file(GLOB ptxmc_top_dirs RELATIVE ${PTXMC_CORPUS_DIR} ${PTXMC_CORPUS_DIR}/*)
list(SORT ptxmc_top_dirs)
set(ptxmc_unit_corpus)
foreach(top IN LISTS ptxmc_top_dirs)
  if(IS_DIRECTORY ${PTXMC_CORPUS_DIR}/${top} AND NOT top STREQUAL "kernels")
    list(APPEND ptxmc_unit_corpus litmus/${top})
  endif()
endforeach()

if(ptxmc_corpus_files)
  # Every axiom of the default model must change some corpus answer when deleted, except the
  # two the PTX ISA states but this formulation implies, and Write-Program-Order (stated for
  # the Z3 engine's fixed orders, implied by SC-per-Location): those must change none.
  # The kernel protocols are left out: each deletion re-checks the corpus, and they take
  # seconds each.
  add_test(NAME corpus/every-axiom-matters
    COMMAND ptxmc axioms --engine enumerate --first-change ${ptxmc_unit_corpus} --implied Fence-SC
            --implied SC-per-Location --implied Write-Program-Order
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # Fast (no solving): every test has its expected.txt line and every line names a live test.
  add_test(NAME corpus/all-tests-have-expectations
    COMMAND ptxmc check --expectations-only litmus WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endif()

# Rejected inputs: each tests/bad/*.litmus must exit 2 with its `(* expect-error: ... *)` text.
file(GLOB ptxmc_bad_files CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}
  ${CMAKE_CURRENT_SOURCE_DIR}/bad/*.litmus)
list(SORT ptxmc_bad_files)
foreach(file IN LISTS ptxmc_bad_files)
  get_filename_component(name ${file} NAME_WLE)
  add_test(NAME bad/${name}
    COMMAND ${CMAKE_COMMAND} -DPTXMC=$<TARGET_FILE:ptxmc> -DTEST_FILE=${file}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/run_bad.cmake
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()

# Explanations render through Graphviz: `--format svg` runs `dot`, which rejects malformed DOT.
foreach(case IN ITEMS tcgen05/commit/L16-MP+commit-nofa tcgen05/commit/L17-MP+commit+fa
                      tcgen05/cta-pair/L27-cg2-multicast-commit-mask01)
  string(REPLACE "/" "_" name ${case})
  add_test(NAME explain/${case}
    COMMAND ptxmc explain --format svg -o ${CMAKE_CURRENT_BINARY_DIR}/${name}.svg litmus/${case}.litmus
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()

# Differential testing: 3000 seeded random tests through both engines (states, observations and
# flags must agree; an internal error of either is a failure). Seed 2497 once crashed the
# explicit engine (a read candidate from a write after a blocked wait). `ptxmc differential
# --seed S --count N` reproduces or extends the run.
add_test(NAME differential/seeds-1-3000
  COMMAND ptxmc differential --seed 1 --count 3000 --jobs 2 --limit 60
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(differential/seeds-1-3000 PROPERTIES TIMEOUT 1200)

# litmus/@all names every corpus test (herd's index form; `ptxmc check litmus/@all`).
add_test(NAME corpus/all-index-complete
  COMMAND ${CMAKE_COMMAND} -DSOURCE=${PROJECT_SOURCE_DIR} -P ${CMAKE_CURRENT_SOURCE_DIR}/all_index.cmake)
