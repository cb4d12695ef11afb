# Writes ptxmc.1 (roff) from the binary's own help: `ptxmc --help`, `ptxmc --version` and
# `ptxmc SUBCOMMAND --help` for every subcommand `ptxmc --help` lists. No date in it, so the
# page is the same for the same binary.
# Usage: cmake -DPTXMC=<exe> -DOUT=<file> -P ManPage.cmake
foreach(var PTXMC OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "ManPage.cmake: -D${var}=... is required")
  endif()
endforeach()

function(ptxmc_help out_var)
  execute_process(COMMAND ${PTXMC} ${ARGN} OUTPUT_VARIABLE text ERROR_VARIABLE err
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ManPage.cmake: `ptxmc ${ARGN}` failed (${rc}): ${err}")
  endif()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# Help text as roff, verbatim: backslashes escaped, hyphens as \-, a control character at a
# line start neutralised.
function(ptxmc_roff out_var text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  string(REGEX REPLACE "\n+$" "" text "${text}")
  # A default the help computes from this machine ("this machine's memory, 16070 MiB") would
  # be the build machine's in the page: the page keeps the rule, not the figure.
  string(REGEX REPLACE "(machine[^\n]*), [0-9]+ MiB\\)" "\\1)" text "${text}")
  set(${out_var} ".nf\n${text}\n.fi\n" PARENT_SCOPE)
endfunction()

ptxmc_help(top --help)
ptxmc_help(version --version)
string(STRIP "${version}" version)
string(REGEX REPLACE "^ptxmc " "" version "${version}")

# The summary: the first line of `ptxmc --help` after "ptxmc: ".
string(REGEX MATCH "^[^\n]*" summary "${top}")
string(REGEX REPLACE "^ptxmc: " "" summary "${summary}")
string(REPLACE "-" "\\-" summary "${summary}")

# Subcommands: the lines of the "Subcommands:" block, "  NAME  description".
set(subcommands "")
string(REGEX MATCH "\nSubcommands:\n(  [^\n]+\n)+" block "${top}")
string(REGEX MATCHALL "\n  [a-z0-9-]+ " names "${block}")
foreach(n IN LISTS names)
  string(STRIP "${n}" n)
  list(APPEND subcommands ${n})
endforeach()
if(NOT subcommands)
  message(FATAL_ERROR "ManPage.cmake: no subcommands found in `ptxmc --help`")
endif()

ptxmc_roff(top_roff "${top}")
set(page ".\\\" Generated from `ptxmc --help` by cmake/ManPage.cmake; edit the help texts.\n")
string(APPEND page ".TH PTXMC 1 \"\" \"ptxmc ${version}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\nptxmc \\- ${summary}\n")
string(APPEND page ".SH SYNOPSIS\n.B ptxmc\n.I SUBCOMMAND\n[\\fIOPTIONS\\fR] [\\fIPATH\\fR...]\n")
string(APPEND page ".SH DESCRIPTION\n${top_roff}")
string(APPEND page ".SH SUBCOMMANDS\n")
foreach(sub IN LISTS subcommands)
  ptxmc_help(text ${sub} --help)
  ptxmc_roff(roff "${text}")
  string(APPEND page ".SS ${sub}\n${roff}")
endforeach()
string(APPEND page ".SH FILES\n.TP\n.I /usr/share/ptxmc/model\n"
  "the built-in models (cat files), for reference: the binary embeds them and never reads these\n"
  ".TP\n.I /usr/share/ptxmc/litmus\n"
  "the litmus corpus with its expectations: \\fBptxmc check /usr/share/ptxmc/litmus\\fR\n"
  ".TP\n.I /usr/share/doc/ptxmc\nREADME.md and the other documents\n"
  ".PP\n(with another install prefix, these are under that prefix instead of /usr)\n")
file(WRITE ${OUT}.tmp "${page}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
