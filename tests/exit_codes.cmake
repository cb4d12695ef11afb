# The exit-status table of docs/check.md, one test per row and cause (status 3 has no known input).
# Included from tests/CMakeLists.txt after ptxmc_cli_test is defined.
ptxmc_cli_test(exit/0-matched ARGS check --no-time docs/first-test/MP+mbarrier.litmus
  SETTINGS -DSTATUS=0 "-DSTDERR_HAS=1 matched, 0 mismatched, 0 unknown, 0 errors")
ptxmc_cli_test(exit/0-first-test ARGS check --no-time docs/first-test
  SETTINGS -DSTATUS=0 "-DSTDOUT_HAS=Expected Sometimes flags=data-race states=2: ok|Expected Never flags=none states=1: ok")
ptxmc_cli_test(exit/1-mismatch ARGS check --no-time tests/reports/MP+weak.litmus
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=MISMATCH" "-DSTDERR_HAS=1 mismatched")
ptxmc_cli_test(exit/1-missing-expectation ARGS check --no-time tests/exit
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=Expected: MISSING (no line in tests/exit/expected.txt)")
ptxmc_cli_test(exit/1-unknown ARGS check --no-time --rlimit 1 docs/first-test/MP+mbarrier.litmus
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=Unknown: resource limit" "-DSTDERR_HAS=1 unknown")
ptxmc_cli_test(exit/1-fail-on-flag ARGS check --no-time --fail-on-flag any docs/first-test
  SETTINGS -DSTATUS=1 "-DSTDERR_HAS=test MP+mbarrier-relaxed raises flag data-race (--fail-on-flag)")
ptxmc_cli_test(exit/2-unknown-option ARGS check --no-such-option docs/first-test
  SETTINGS -DSTATUS=2)
ptxmc_cli_test(exit/2-unknown-flag-name ARGS check --fail-on-flag datarace docs/first-test
  SETTINGS -DSTATUS=2 "-DSTDERR_HAS=--fail-on-flag:1:1: error: unknown flag 'datarace'")
ptxmc_cli_test(exit/2-no-such-file ARGS check no-such-test.litmus
  SETTINGS -DSTATUS=2 "-DSTDERR_HAS=no-such-test.litmus")
ptxmc_cli_test(exit/2-parse-error ARGS check tests/bad/nvcc-ptx-module.litmus
  SETTINGS -DSTATUS=2 "-DSTDERR_HAS=tests/bad/nvcc-ptx-module.litmus:")
