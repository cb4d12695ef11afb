# The generated inputs of the CLI cases, written at configure time into the cases' %{work}.

# W8 (bench/run.sh's family): 8 writers to x, 73 final states, far more than a millisecond.
set(header " P0@cta 0,gpu 0")
set(row1 " ld.relaxed.cta r0, x")
set(row2 " ld.relaxed.cta r1, x")
foreach(i RANGE 1 8)
  string(APPEND header " | P${i}@cta 0,gpu 0")
  string(APPEND row1 " | st.relaxed.cta x, ${i}")
  string(APPEND row2 " |")
endforeach()
file(WRITE ${ptxmc_cli_work}/W8.litmus "PTX W8\n{\n  x = 0;\n}\n${header} ;\n${row1} ;\n"
  "${row2} ;\nexists (P0:r0 == 2 /\\ P0:r1 == 1)\n")

# Limits that hold in every phase (engine/Budget.hpp): 300 threads storing to one location
# take gigabytes to encode, so only the limits stop them in time. 1025 threads are one too many.
function(ptxmc_write_writers file threads)
  set(header " P0@cta 0,gpu 0")
  set(row " st.relaxed.gpu x, 1")
  math(EXPR last "${threads} - 1")
  foreach(i RANGE 1 ${last})
    string(APPEND header " | P${i}@cta 0,gpu 0")
    string(APPEND row " | st.relaxed.gpu x, ${i}")
  endforeach()
  file(WRITE ${file} "PTX W${threads}\n{ x = 0; }\n${header} ;\n${row} ;\nexists (x == 1)\n")
endfunction()
ptxmc_write_writers(${ptxmc_cli_work}/W300.litmus 300)
ptxmc_write_writers(${ptxmc_cli_work}/W1025.litmus 1025)
# The initial write of x is the first event, so the 16384th store is one too many.
string(REPEAT " st.relaxed.gpu x, 1 ;\n" 16385 rows)
file(WRITE ${ptxmc_cli_work}/Long.litmus
  "PTX Long\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n${rows}exists (x == 1)\n")

# The loop family (bench/families.py loop N): one thread stores 0..N-1 to x in a counted loop,
# another reads x: N states (the first store writes the initial 0 again). Write-Program-Order
# fixes the writes' coherence order, so N = 100 answers at once; larger N stop at the limits,
# inside the solver too.
foreach(n IN ITEMS 20 100 1000 4000)
  execute_process(COMMAND ${PTXMC_PYTHON3} ${PROJECT_SOURCE_DIR}/bench/families.py loop ${n}
    OUTPUT_FILE ${ptxmc_cli_work}/LOOP${n}.litmus COMMAND_ERROR_IS_FATAL ANY)
endforeach()
# The TMA-UMMA ring 2x32 (bench/protocols/umma.py): about 13 s of encoding, then 12 s of
# solving on 2 cores, so a 17 s limit falls in Z3's queries. 2x24 no longer did: it finishes in
# 9-12 s since the scale work (bench/history.md), and under load it beat the limit.
execute_process(COMMAND ${PTXMC_PYTHON3} ${PROJECT_SOURCE_DIR}/bench/protocols/umma.py 2 32
  OUTPUT_FILE ${ptxmc_cli_work}/umma-2x32.litmus COMMAND_ERROR_IS_FATAL ANY)

# 80 threads storing to x: Z3 passes 100 MiB within a second (without the limit it runs for
# minutes); one CTA and .cta stores (no weakening for fences), or four CTAs (gen-cuda's limit).
function(ptxmc_write_stores file threads per_cta scope)
  math(EXPR last "${threads} - 1")
  set(header "")
  set(row "")
  foreach(i RANGE 0 ${last})
    math(EXPR cta "${i} / ${per_cta}")
    math(EXPR value "${i} + 1")
    string(APPEND header " P${i}@cta ${cta},gpu 0 |")
    string(APPEND row " st.relaxed.${scope} x, ${value} |")
  endforeach()
  string(REGEX REPLACE "\\|$" ";" header "${header}")
  string(REGEX REPLACE "\\|$" ";" row "${row}")
  file(WRITE ${file} "PTX Stores${threads}\n{ x = 0; }\n${header}\n${row}\nexists (x == 1)\n")
endfunction()
ptxmc_write_stores(${ptxmc_cli_work}/pipeline/Stores80cta.litmus 80 80 cta)
ptxmc_write_stores(${ptxmc_cli_work}/pipeline/Stores80.litmus 80 20 gpu)

# compare: one-test results files (invented counts) naming the tests above.
function(ptxmc_write_results file test observed values)
  file(WRITE ${file} "{\"device\": \"none\", \"tests\": [{\"name\": \"t\", \"file\": \"${test}\", "
    "\"status\": \"ok\", \"observed\": [${observed}], "
    "\"histogram\": [{\"values\": [${values}], \"count\": 10, \"satisfies\": true}]}]}\n")
endfunction()
set(results ${ptxmc_cli_work}/pipeline)
ptxmc_write_results(${results}/loop.json
  ${PROJECT_SOURCE_DIR}/tests/cli/check/control/count-spins.litmus "\"P1:c\"" 1)
ptxmc_write_results(${results}/w8.json ${ptxmc_cli_work}/W8.litmus "\"P0:r0\", \"P0:r1\"" "0, 0")
ptxmc_write_results(${results}/big.json ${results}/Stores80cta.litmus "\"x\"" 1)
ptxmc_write_results(${results}/sb.json ${ptxmc_model_probe} "\"P0:r0\", \"P1:r1\"" "0, 0")
ptxmc_write_results(${results}/q1.json litmus/tcgen05/fences/L34a-cutlass-acc-stale.litmus
  "\"P1:r0\"" 1)

# Expectation files: MP+weak (Sometimes, 4 states, data-race) in folders of its own, with a
# wrong flag set (a mismatch that says so) and malformed lines (input errors at the field).
set(race ${PROJECT_SOURCE_DIR}/litmus/ptx/classic/MP+weak.litmus)
foreach(folder wrong-flags old-format flag-without-reason)
  configure_file(${race} ${ptxmc_cli_work}/expectations/${folder}/MP+weak.litmus COPYONLY)
endforeach()
file(WRITE ${ptxmc_cli_work}/expectations/wrong-flags/expected.txt
  "MP+weak.litmus  Sometimes  flags=none  states=4  weak accesses\n")
file(WRITE ${ptxmc_cli_work}/expectations/old-format/expected.txt
  "MP+weak.litmus  Sometimes  weak\n")
file(WRITE ${ptxmc_cli_work}/expectations/flag-without-reason/expected.txt
  "MP+weak.litmus  Sometimes  flags=data-race  states=4  weak accesses\n")
