# Expectation answers (verdict, flags=, states=) and `check --fail-on-flag`, through the CLI.
# Included from tests/CMakeLists.txt after ptxmc_cli_test is defined.

# MP+weak: Sometimes, 4 states, raises data-race; its expected.txt line matches.
set(ptxmc_race litmus/ptx/classic/MP+weak.litmus)
ptxmc_cli_test(flags/fail-on-data-race
  ARGS check --no-time --fail-on-flag data-race ${ptxmc_race}
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=Expected Sometimes flags=data-race states=4: ok"
  "-DSTDERR_HAS=${ptxmc_race}: error: test MP+weak raises flag data-race (--fail-on-flag)|1 matched|1 failed on flags")
ptxmc_cli_test(flags/fail-on-any ARGS check --no-time --fail-on-flag any ${ptxmc_race}
  SETTINGS -DSTATUS=1 "-DSTDERR_HAS=test MP+weak raises flag data-race|1 failed on flags")
ptxmc_cli_test(flags/fail-on-other-flag ARGS check --no-time --fail-on-flag tmem-race ${ptxmc_race}
  SETTINGS -DSTATUS=0 "-DSTDERR_HAS=0 failed on flags" "-DSTDERR_LACKS=raises flag")
ptxmc_cli_test(flags/fail-on-flag-repeated
  ARGS check --no-time --fail-on-flag tmem-race --fail-on-flag data-race ${ptxmc_race}
  SETTINGS -DSTATUS=1 "-DSTDERR_HAS=raises flag data-race")
ptxmc_cli_test(flags/fail-on-flag-json ARGS check --no-time --json --fail-on-flag any ${ptxmc_race}
  SETTINGS -DSTATUS=1 "-DSTDOUT_HAS=\"matches\": true" "-DSTDERR_HAS=raises flag data-race")
ptxmc_cli_test(flags/no-fail-on-flag ARGS check --no-time ${ptxmc_race}
  SETTINGS -DSTATUS=0 "-DSTDERR_LACKS=raises flag|failed on flags")
ptxmc_cli_test(flags/fail-on-bad-name ARGS check --fail-on-flag data,race ${ptxmc_race}
  SETTINGS -DSTATUS=2 "-DSTDERR_HAS=expected a flag name (letters, digits, '_' and '-') or 'any'")
# The gate cannot be fooled: an unknown name is an input error that lists the model's flags;
# a value is one word, so the paths after it stay paths; `=` works.
ptxmc_cli_test(flags/fail-on-unknown-name ARGS check --fail-on-flag datarace ${ptxmc_race}
  SETTINGS -DSTATUS=2
  "-DSTDERR_HAS=--fail-on-flag:1:1: error: unknown flag 'datarace': the model's flags are any, async-pending-at-exit, data-race, hang, mbarrier-misuse")
ptxmc_cli_test(flags/fail-on-flag-then-two-paths
  ARGS check --no-time --fail-on-flag any ${ptxmc_race} litmus/ptx/classic/MP+bar.sync.litmus
  SETTINGS -DSTATUS=1 "-DSTDERR_HAS=2 matched|1 failed on flags")
ptxmc_cli_test(flags/fail-on-flag-equals ARGS check --no-time --fail-on-flag=data-race ${ptxmc_race}
  SETTINGS -DSTATUS=1 "-DSTDERR_HAS=raises flag data-race|1 failed on flags")
ptxmc_cli_test(flags/fail-on-hang ARGS check --no-time --fail-on-flag hang ${ptxmc_race}
  SETTINGS -DSTATUS=0 "-DSTDERR_HAS=0 failed on flags")

# A corpus folder of its own (configure time): a wrong flag set is a mismatch that says so.
set(ptxmc_expect_dir ${CMAKE_CURRENT_BINARY_DIR}/expectations)
configure_file(${PROJECT_SOURCE_DIR}/${ptxmc_race} ${ptxmc_expect_dir}/wrong-flags/MP+weak.litmus
  COPYONLY)
file(WRITE ${ptxmc_expect_dir}/wrong-flags/expected.txt
  "MP+weak.litmus  Sometimes  flags=none  states=4  weak accesses\n")
ptxmc_cli_test(flags/mismatch-says-what-differs
  ARGS check --no-time ${ptxmc_expect_dir}/wrong-flags
  SETTINGS -DSTATUS=1
  "-DSTDOUT_HAS=Expected: MISMATCH: expected Sometimes flags=none states=4, got Sometimes flags=data-race states=4 (reason: weak accesses)"
  "-DSTDERR_HAS=1 mismatched")
ptxmc_cli_test(flags/mismatch-says-what-differs-json
  ARGS check --no-time --json ${ptxmc_expect_dir}/wrong-flags
  SETTINGS -DSTATUS=1
  "-DSTDOUT_HAS=\"mismatch\": \"expected Sometimes flags=none states=4, got Sometimes flags=data-race states=4\"")

# Malformed expectation files are input errors at the field (exit 2).
configure_file(${PROJECT_SOURCE_DIR}/${ptxmc_race} ${ptxmc_expect_dir}/old-format/MP+weak.litmus
  COPYONLY)
file(WRITE ${ptxmc_expect_dir}/old-format/expected.txt "MP+weak.litmus  Sometimes  weak\n")
ptxmc_cli_test(flags/old-format-line ARGS check --no-time ${ptxmc_expect_dir}/old-format
  SETTINGS -DSTATUS=2
  "-DSTDERR_HAS=old-format/expected.txt:1:28: error: expected flags=none or flags=NAME[,NAME...] after the observation, got 'weak'")
configure_file(${PROJECT_SOURCE_DIR}/${ptxmc_race}
  ${ptxmc_expect_dir}/flag-without-reason/MP+weak.litmus COPYONLY)
file(WRITE ${ptxmc_expect_dir}/flag-without-reason/expected.txt
  "MP+weak.litmus  Sometimes  flags=data-race  states=4  weak accesses\n")
ptxmc_cli_test(flags/flag-without-reason
  ARGS check --no-time ${ptxmc_expect_dir}/flag-without-reason
  SETTINGS -DSTATUS=2
  "-DSTDERR_HAS=flag-without-reason/expected.txt:1:34: error: the reason must say why flag 'data-race' is raised")
