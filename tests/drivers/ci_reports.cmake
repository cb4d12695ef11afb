# `check --format sarif|junit` on every kind of outcome (a pass, a raised flag, a failed
# expectation, Unknown, an input error, a file name that is not UTF-8), validated by tests/drivers/validate_reports.py: SARIF against
# the published 2.1.0 schema (downloaded once by scripts/fetch-sarif-schema.sh to SCHEMA),
# JUnit with Python's XML parser.
# Usage: cmake -DPTXMC=<ptxmc> -DPYTHON=<python3> -DSOURCE=<source tree> -DWORK=<scratch>
#   -DSCHEMA=<schema file> -DFORMAT=sarif|junit -P ci_reports.cmake   (run in the source tree)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(out ${WORK}/report.${FORMAT})
# A file name is bytes, not always UTF-8: the reports must stay valid JSON and XML.
string(ASCII 255 ff)
file(COPY_FILE ${SOURCE}/tests/report/MP+weak.litmus "${WORK}/bad${ff}name.litmus")
# --rlimit 1 stops every Z3 query: MP+weak and MP+bar.sync answer Unknown in the second run.
foreach(run IN ITEMS plain limited)
  set(extra "")
  if(run STREQUAL "limited")
    set(extra --rlimit 1)
  endif()
  execute_process(COMMAND ${PTXMC} check --no-time --format ${FORMAT} -o ${out} ${extra}
    --fail-on-flag data-race tests/report tests/litmus/bad/binary-junk.litmus no-such-test.litmus
    "${WORK}/bad${ff}name.litmus"
    TIMEOUT 120 RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status STREQUAL "2")
    message(FATAL_ERROR "${run}: status ${status}, expected 2 (an input error)\n${err}")
  endif()
  if(NOT PYTHON)
    message(FATAL_ERROR "no python3 to validate the report (scripts/install-deps.sh)")
  endif()
  if(FORMAT STREQUAL "sarif")
    execute_process(COMMAND bash ${SOURCE}/scripts/fetch-sarif-schema.sh ${SCHEMA}
      RESULT_VARIABLE fetched ERROR_VARIABLE why)
    if(NOT fetched STREQUAL "0")
      message(FATAL_ERROR "no SARIF schema to validate against: ${why}")
    endif()
    set(validate sarif ${SCHEMA} ${out})
  else()
    set(validate junit ${out})
  endif()
  execute_process(COMMAND ${PYTHON} ${SOURCE}/tests/drivers/validate_reports.py ${validate}
    RESULT_VARIABLE status OUTPUT_VARIABLE said ERROR_VARIABLE said)
  if(NOT status STREQUAL "0")
    file(READ ${out} written)
    message(FATAL_ERROR "${run}: ${said}\n${written}")
  endif()
  file(READ ${out} written)
  set(wanted_plain_sarif "\"ruleId\": \"data-race\"|\"level\": \"error\"|\"ruleId\": \"expectation-mismatch\"|\"ruleId\": \"input-error\"|\"uri\": \"no-such-test.litmus\"|\"startLine\": 11")
  set(wanted_limited_sarif "\"ruleId\": \"unknown\"|resource limit")
  set(wanted_plain_junit "<failure type=\"expectation-mismatch\"|<error type=\"input-error\"|classname=\"tests/report\" name=\"MP+weak\"")
  set(wanted_limited_junit "<error type=\"unknown\" message=\"Unknown: resource limit")
  string(REPLACE "|" ";" wanted "${wanted_${run}_${FORMAT}}")
  foreach(part IN LISTS wanted)
    string(FIND "${written}" "${part}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${run}: the report lacks ${part}\n${written}")
    endif()
  endforeach()
  message(STATUS "${run}: ${said}")
endforeach()
