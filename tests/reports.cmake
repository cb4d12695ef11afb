# Reports CI tools read (`check --format sarif|junit`), structured flag events in `--json`, and
# `--shard I/N`, through the CLI. Included from tests/CMakeLists.txt after ptxmc_cli_test.

# tests/reports: MP+weak raises data-race and its expected.txt line is wrong on purpose;
# MP+bar.sync passes. The goldens are byte for byte (--no-time), also when checked two at a time.
ptxmc_cli_test(reports/sarif-golden ARGS check --no-time --format sarif tests/reports
  SETTINGS -DSTATUS=1 -DGOLDEN=tests/golden/reports.sarif)
ptxmc_cli_test(reports/sarif-golden-jobs ARGS check --no-time --jobs 2 --format sarif tests/reports
  SETTINGS -DSTATUS=1 -DGOLDEN=tests/golden/reports.sarif)
ptxmc_cli_test(reports/junit-golden ARGS check --no-time --format junit tests/reports
  SETTINGS -DSTATUS=1 -DGOLDEN=tests/golden/reports.junit.xml)
ptxmc_cli_test(reports/sarif-output-file
  ARGS check --no-time --format sarif -o ${CMAKE_CURRENT_BINARY_DIR}/reports-out.sarif
  --fail-on-flag data-race tests/reports
  SETTINGS -DSTATUS=1 -DOUTPUT_FILE=${CMAKE_CURRENT_BINARY_DIR}/reports-out.sarif
  "-DOUTPUT_FILE_HAS=\"version\": \"2.1.0\"|\"ruleId\": \"data-race\"|\"level\": \"error\"|(--fail-on-flag)"
  "-DSTDERR_HAS=raises flag data-race (--fail-on-flag)")
ptxmc_cli_test(reports/junit-time ARGS check --format junit tests/reports/MP+bar.sync.litmus
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=<testcase classname=\"tests/reports\" name=\"MP+bar.sync\" time=\"")
ptxmc_cli_test(reports/junit-fail-on-flag
  ARGS check --no-time --format junit --fail-on-flag any litmus/ptx/classic/MP+weak.litmus
  SETTINGS -DSTATUS=1
  "-DSTDOUT_HAS=<failure type=\"fail-on-flag\" message=\"test MP+weak raises flag data-race (--fail-on-flag)\"")
# A model that does not load: the document still comes, with the error in it.
ptxmc_cli_test(reports/sarif-bad-model
  ARGS check --no-time --format sarif --model no-such-model.cat tests/reports
  SETTINGS -DSTATUS=2 "-DSTDOUT_HAS=\"ruleId\": \"input-error\"|\"rules\": ")
# One check, every report: text on stdout, SARIF and JUnit to their own files.
ptxmc_cli_test(reports/sarif-output-beside-text
  ARGS check --no-time --sarif-output ${CMAKE_CURRENT_BINARY_DIR}/reports-beside.sarif tests/reports
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=Test MP+weak Allowed|Expected: MISMATCH"
  -DOUTPUT_FILE=${CMAKE_CURRENT_BINARY_DIR}/reports-beside.sarif
  "-DOUTPUT_FILE_HAS=\"ruleId\": \"expectation-mismatch\"")
ptxmc_cli_test(reports/junit-output-beside-sarif
  ARGS check --no-time --format sarif --junit-output ${CMAKE_CURRENT_BINARY_DIR}/reports-beside.xml
  tests/reports
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=\"version\": \"2.1.0\""
  -DOUTPUT_FILE=${CMAKE_CURRENT_BINARY_DIR}/reports-beside.xml
  "-DOUTPUT_FILE_HAS=<failure type=\"expectation-mismatch\"")
ptxmc_cli_test(reports/sarif-output-unwritable
  ARGS check --sarif-output no-such-folder/x.sarif tests/reports
  SETTINGS -DSTATUS=2 "-DSTDERR_HAS=no-such-folder/x.sarif: error: cannot write this file (--sarif-output)")
ptxmc_cli_test(reports/format-unknown ARGS check --format xml tests/reports
  SETTINGS -DSTATUS=2 "-DSTDERR_HAS=--format")
foreach(format IN ITEMS sarif junit)
  add_test(NAME reports/${format}-valid
    COMMAND ${CMAKE_COMMAND} -DPTXMC=$<TARGET_FILE:ptxmc> -DPYTHON=${PTXMC_PYTHON3}
            -DSOURCE=${PROJECT_SOURCE_DIR} -DWORK=${CMAKE_CURRENT_BINARY_DIR}/ci-reports-${format}
            -DSCHEMA=${CMAKE_CURRENT_BINARY_DIR}/schemas/sarif-2.1.0-rtm.5.json
            -DFORMAT=${format} -P ${CMAKE_CURRENT_SOURCE_DIR}/ci_reports.cmake
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()

# --json: each witness of a flag is its events, with file, line, column, thread, instruction.
ptxmc_cli_test(reports/json-flag-events ARGS check --no-time --json litmus/ptx/classic/MP+weak.litmus
  SETTINGS -DSTATUS=0
  "-DSTDOUT_HAS=\"witnesses\": |\"file\": \"litmus/ptx/classic/MP+weak.litmus\",|\"line\": 11,|\"column\": 2,|\"thread\": 0,|\"instruction\": \"st.weak\"|\"thread\": 1,")

# --shard I/N: every N-th test from the I-th; shards 1..3 of the corpus are the corpus, once.
ptxmc_cli_test(shard/second-of-two ARGS check --no-time --shard 2/2 tests/reports
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=Test MP+weak" "-DSTDOUT_LACKS=Test MP+bar.sync"
  "-DSTDERR_HAS=ptxmc: 1 test,")
ptxmc_cli_test(shard/list ARGS check --list --shard 1/2 tests/reports
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=tests/reports/MP+bar.sync.litmus" "-DSTDOUT_LACKS=MP+weak")
ptxmc_cli_test(shard/expectations-only ARGS check --expectations-only --shard 1/2 tests/reports
  SETTINGS -DSTATUS=0 "-DSTDERR_HAS=ptxmc: 1 test, 1 with expectations")
foreach(bad IN ITEMS 0/3 4/3 3 1/0 a/b 1/3/1 -1/3)
  string(REPLACE "/" "-" tag "${bad}")
  ptxmc_cli_test(shard/bad-${tag} ARGS check --no-time --shard=${bad} tests/reports
    SETTINGS -DSTATUS=2
    "-DSTDERR_HAS=--shard:1:1: error: expected I/N with 1 <= I <= N (shard I of N, e.g. 2/4), got '${bad}'"
    "-DSTDOUT_LACKS=Test ")
endforeach()
add_test(NAME shard/corpus-union
  COMMAND ${CMAKE_COMMAND} -DPTXMC=$<TARGET_FILE:ptxmc> -DPATHS=litmus -DCOUNT=3
          -P ${CMAKE_CURRENT_SOURCE_DIR}/shards.cmake
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# The other subcommands that check many tests take --shard too.
ptxmc_cli_test(shard/fences ARGS fences --shard 2/2 tests/reports
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=Test MP+weak" "-DSTDOUT_LACKS=MP+bar.sync")
ptxmc_cli_test(shard/diff
  ARGS diff --model ptx.cat --model variants/q4-kind-not-required.cat --shard 1/2 tests/reports
  SETTINGS -DSTATUS=0 "-DSTDERR_HAS=ptxmc diff: 1 test,")
ptxmc_cli_test(shard/diff-bad
  ARGS diff --model ptx.cat --model variants/q4-kind-not-required.cat --shard 3/2 tests/reports
  SETTINGS -DSTATUS=2 "-DSTDERR_HAS=--shard:1:1: error: expected I/N")

# --readings: a reading whose answer differs from its expectation is a warning result, and
# under --strict an error result and a JUnit failure, as it fails the run.
ptxmc_cli_test(reports/sarif-readings ARGS check --no-time --readings --format sarif tests/readings
  SETTINGS -DSTATUS=0
  "-DSTDOUT_HAS=\"ruleId\": \"expectation-mismatch\"|\"level\": \"warning\"|under variants/q11-wait-orders-before-sync.cat the answer is Never")
ptxmc_cli_test(reports/junit-readings-strict
  ARGS check --no-time --readings --strict --format junit tests/readings
  SETTINGS -DSTATUS=1
  "-DSTDOUT_HAS=failures=\"1\"|<failure type=\"expectation-mismatch\" message=\"tests/readings/L33-ld-wait.ld-mma-xthread-nofb.litmus: under variants/")
