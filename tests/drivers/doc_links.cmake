# Every relative link of the user-facing documents points at a file or folder of the tree, so
# they read correctly on a fresh clone. Usage: cmake -DSOURCE=<tree> -P doc_links.cmake
set(documents README.md docs/README.md litmus/README.md model/README.md validate/README.md
  docs/install.md docs/check.md docs/explain.md docs/kernel.md docs/kernel-protocols.md
  docs/reordering-tables.md docs/architecture.md docs/robustness.md docs/performance.md
  docs/gpu-results.md)
set(problems "")
set(links 0)
foreach(doc IN LISTS documents)
  file(READ ${SOURCE}/${doc} text)
  get_filename_component(dir ${SOURCE}/${doc} DIRECTORY)
  # inline links `](target)` and definitions `[label]: target` (marked without brackets,
  # which would glue CMake list items together)
  string(REPLACE "](" " LINK:" marked "${text}")
  string(REGEX REPLACE "\n\\[[-A-Za-z0-9._]+\\]: " "\nLINK:" marked "${marked}")
  string(REGEX MATCHALL "LINK:[^)# \n]+" found "${marked}")
  set(targets "")
  foreach(m IN LISTS found)
    string(SUBSTRING "${m}" 5 -1 t)
    list(APPEND targets "${t}")
  endforeach()
  foreach(t IN LISTS targets)
    if(t MATCHES "^[a-z]+:")
      continue() # https:, mailto:
    endif()
    math(EXPR links "${links} + 1")
    if(NOT EXISTS ${dir}/${t})
      string(APPEND problems "  ${doc}: ${t}\n")
    endif()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "links to nothing:\n${problems}")
endif()
message(STATUS "ok: ${links} relative links resolve")
