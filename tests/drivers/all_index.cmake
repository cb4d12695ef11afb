# litmus/@all, the herd-style index of the whole corpus, lists every .litmus file under litmus/
# once, sorted (byte order). Regenerate it with:
#   (cd litmus && find . -name '*.litmus' | sed 's#^./##' | LC_ALL=C sort > @all)
file(GLOB_RECURSE found RELATIVE ${SOURCE}/litmus ${SOURCE}/litmus/*.litmus)
list(SORT found)
file(STRINGS ${SOURCE}/litmus/@all listed)
list(FILTER listed EXCLUDE REGEX "^(#.*)?$")
if(NOT found STREQUAL listed)
  set(missing ${found})
  list(REMOVE_ITEM missing ${listed})
  set(stale ${listed})
  list(REMOVE_ITEM stale ${found})
  message(FATAL_ERROR "litmus/@all is out of date (or not sorted).\n"
    "  missing: ${missing}\n  no such test: ${stale}\n"
    "Regenerate: (cd litmus && find . -name '*.litmus' | sed 's#^./##' | LC_ALL=C sort > @all)")
endif()
list(LENGTH found n)
message(STATUS "litmus/@all lists all ${n} tests")
