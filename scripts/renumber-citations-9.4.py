#!/usr/bin/env python3
"""Renumber PTX ISA citations from the 9.1 text to the 9.4 text.

Usage (from the repository root):
    python3 scripts/renumber-citations-9.4.py            # every tracked text file (minus EXCLUDE)
    python3 scripts/renumber-citations-9.4.py FILE...    # just these files
    python3 scripts/renumber-citations-9.4.py --check    # report what would change, change nothing

A citation is a section number, optionally followed by its HTML anchor ("9.7.13.4 #anchor" or
"9.7.13.4 (#anchor)").  The mapping is built from the old (9.1) and new (9.4) rows of
src/ptx/Sections.cpp (ROWS below, one per key) plus the sections the prose cites that have no
row (EXTRA_PAIRS, EXTRA_NUMBERS):

  * number + anchor: mapped by the (number, anchor) pair.  Pairs already in 9.4 form map to
    themselves, so running the script twice changes nothing.  A pair that is neither old nor
    new is left alone and reported (fix it by hand or add it to EXTRA_PAIRS).
  * number alone: mapped only for chapter-9.7 numbers of the 9.1 text (NUMBER_ONLY).  No old
    9.7 number is a 9.4 number of a cited section, so a 9.4 number is never mapped again;
    chapter 5 and 8 numbers did not move and are never touched, which also leaves alone the
    numbers of other documents (CUDA Programming Guide, the seed guide, the mixed-proxy
    paper: none of them is a 9.7.x number).
  * `{Key} #anchor` (a Sections.cpp key followed by a literal anchor) becomes `{Key#}`.
  * OVERRIDES: exact phrases that name the 9.0/9.1 numbering or cite a section the 9.4 text
    moved elsewhere.

Numbers are matched whole: "9.7.13.1" never matches inside "9.7.13.15" (the character after a
number may not be a digit, a letter or ".digit").
"""
import re
import subprocess
import sys

# key, 9.1 number, 9.1 anchor ("" = none recorded), 9.4 number, 9.4 anchor
ROWS = [
    ("StateSpaces", "5.1", "", "5.1", "state-spaces"),
    ("SharedStateSpace", "5.1.7", "shared-state-space", "5.1.7", "shared-state-space"),
    ("MemoryConsistencyModel", "8.2", "memory-consistency-model", "8", "memory-consistency-model"),
    ("OperationTypes", "8.4", "operation-types", "8.4", "operation-types"),
    ("Scope", "8.5", "scope", "8.5", "scope"),
    ("Proxies", "8.6", "proxies", "8.6", "proxies"),
    ("MorallyStrong", "8.7", "morally-strong-operations", "8.7", "morally-strong-operations"),
    ("ReleaseAcquirePatterns", "8.8", "release-acquire-patterns", "8.8", "release-acquire-patterns"),
    ("ProgramOrder", "8.9.1", "program-order", "8.9.1", "program-order"),
    ("ProgramOrderAsync", "8.9.1.1", "program-order-async-operations", "8.9.1.1",
     "program-order-async-operations"),
    ("ObservationOrder", "8.9.2", "", "8.9.2", "observation-order"),
    ("FenceScOrder", "8.9.3", "fence-sc-order", "8.9.3", "fence-sc-order"),
    ("CoherenceOrder", "8.9.6", "coherence-order", "8.9.6", "coherence-order"),
    ("Dependencies", "8.10.4", "", "8.10.4", "no-thin-air-axiom"),
    ("PredicatedExecution", "9.3", "", "9.3", "predicated-execution"),
    ("Setp", "9.7.3.1", "", "9.7.7.2", "comparison-and-selection-instructions-setp"),
    ("ControlFlow", "9.7.8", "", "9.7.14", "control-flow-instructions"),
    ("Bra", "9.7.8.1", "control-flow-instructions-bra", "9.7.14.3", "control-flow-instructions-bra"),
    ("Exit", "9.7.8.4", "", "9.7.14.7", "control-flow-instructions-exit"),
    ("Ret", "9.7.8.5", "", "9.7.14.6", "control-flow-instructions-ret"),
    ("Mov", "9.7.9.1", "", "9.7.10.3", "data-movement-and-conversion-instructions-mov"),
    ("StAsync", "9.7.9.12", "data-movement-and-conversion-instructions-st-async", "9.7.10.12",
     "data-movement-and-conversion-instructions-st-async"),
    ("AsyncCopies", "9.7.9.25", "", "9.7.10.28",
     "data-movement-and-conversion-instructions-asynchronous-copy"),
    ("CpAsyncCompletion", "9.7.9.25.1",
     "data-movement-and-conversion-instructions-asynchronous-copy-completion-mechanisms",
     "9.7.10.28.1",
     "data-movement-and-conversion-instructions-asynchronous-copy-completion-mechanisms"),
    ("CpAsyncGroups", "9.7.9.25.1.1", "", "9.7.10.28.1.1",
     "data-movement-and-conversion-instructions-asynchronous-copy-completion-mechanisms-async-group"),
    ("AsyncProxy", "9.7.9.25.2", "async-proxy", "9.7.10.28.2", "async-proxy"),
    ("NonBulkCopies", "9.7.9.25.3", "", "9.7.10.28.3",
     "data-movement-and-conversion-instructions-non-bulk-copy"),
    ("CpAsync", "9.7.9.25.3.1", "data-movement-and-conversion-instructions-cp-async",
     "9.7.10.28.3.1", "data-movement-and-conversion-instructions-cp-async"),
    ("CpAsyncCommitGroup", "9.7.9.25.3.2",
     "data-movement-and-conversion-instructions-cp-async-commit-group", "9.7.10.28.3.2",
     "data-movement-and-conversion-instructions-cp-async-commit-group"),
    ("CpAsyncWaitGroup", "9.7.9.25.3.3",
     "data-movement-and-conversion-instructions-cp-async-wait-group", "9.7.10.28.3.3",
     "data-movement-and-conversion-instructions-cp-async-wait-group"),
    ("BulkCopies", "9.7.9.25.4", "", "9.7.10.28.4",
     "data-movement-and-conversion-instructions-bulk-copy"),
    ("CpAsyncBulk", "9.7.9.25.4.1", "data-movement-and-conversion-instructions-cp-async-bulk",
     "9.7.10.28.4.1", "data-movement-and-conversion-instructions-cp-async-bulk"),
    ("CpReduceAsyncBulk", "9.7.9.25.4.2", "", "9.7.10.28.4.2",
     "data-movement-and-conversion-instructions-cp-reduce-async-bulk"),
    ("TensorCopies", "9.7.9.25.5", "", "9.7.10.28.5",
     "data-movement-and-conversion-instructions-tensor-copy"),
    ("CpAsyncBulkTensor", "9.7.9.25.5.2",
     "data-movement-and-conversion-instructions-cp-async-bulk-tensor", "9.7.10.28.5.3",
     "data-movement-and-conversion-instructions-cp-async-bulk-tensor"),
    ("BulkGroups", "9.7.9.25.6", "", "9.7.10.28.6",
     "data-movement-and-conversion-instructions-bulk-tensor-copy-completion"),
    ("CpAsyncBulkCommitGroup", "9.7.9.25.6.1",
     "data-movement-and-conversion-instructions-cp-async-bulk-commit-group", "9.7.10.28.6.1",
     "data-movement-and-conversion-instructions-cp-async-bulk-commit-group"),
    ("CpAsyncBulkWaitGroup", "9.7.9.25.6.2",
     "data-movement-and-conversion-instructions-cp-async-bulk-wait-group", "9.7.10.28.6.2",
     "data-movement-and-conversion-instructions-cp-async-bulk-wait-group"),
    ("TensormapReplace", "9.7.9.28", "data-movement-and-conversion-instructions-tensormap-replace",
     "9.7.10.29", "data-movement-and-conversion-instructions-tensormap-replace"),
    ("BarBarrier", "9.7.13.1", "parallel-synchronization-and-communication-instructions-bar-barrier",
     "9.7.15.1", "parallel-synchronization-and-communication-instructions-bar"),
    ("BarrierCluster", "9.7.13.2",
     "parallel-synchronization-and-communication-instructions-barrier-cluster", "9.7.15.3",
     "parallel-synchronization-and-communication-instructions-barrier-cluster"),
    ("Membar", "9.7.13.4", "parallel-synchronization-and-communication-instructions-membar",
     "9.7.15.4", "parallel-synchronization-and-communication-instructions-membar"),
    ("Atom", "9.7.13.5", "parallel-synchronization-and-communication-instructions-atom",
     "9.7.15.5", "parallel-synchronization-and-communication-instructions-atom"),
    ("Red", "9.7.13.6", "parallel-synchronization-and-communication-instructions-red",
     "9.7.15.6", "parallel-synchronization-and-communication-instructions-red"),
    ("Elect", "9.7.13.11", "", "9.7.15.15",
     "parallel-synchronization-and-communication-instructions-elect-sync"),
    ("Mbarrier", "9.7.13.15", "parallel-synchronization-and-communication-instructions-mbarrier",
     "9.7.15.16", "parallel-synchronization-and-communication-instructions-mbarrier"),
    ("MbarrierOrder", "9.7.13.15.2", "", "9.7.15.16.3",
     "parallel-synchronization-and-communication-instructions-mbarrier-contents"),
    ("MbarrierPhase", "9.7.13.15.4",
     "parallel-synchronization-and-communication-instructions-mbarrier-phase", "9.7.15.16.5",
     "parallel-synchronization-and-communication-instructions-mbarrier-phase"),
    ("MbarrierExpectTxOperation", "9.7.13.15.5.1",
     "parallel-synchronization-and-communication-instructions-mbarrier-expect-tx-operation",
     "9.7.15.16.6.1",
     "parallel-synchronization-and-communication-instructions-mbarrier-expect-tx-operation"),
    ("MbarrierCompleteTxOperation", "9.7.13.15.5.2", "", "9.7.15.16.6.2",
     "parallel-synchronization-and-communication-instructions-mbarrier-complete-tx-operation"),
    ("MbarrierPhaseCompletion", "9.7.13.15.6", "", "9.7.15.16.8",
     "parallel-synchronization-and-communication-instructions-mbarrier-phase-completion"),
    ("MbarrierArriveOn", "9.7.13.15.7", "", "9.7.15.16.9",
     "parallel-synchronization-and-communication-instructions-mbarrier-arrive-on"),
    ("MbarrierInit", "9.7.13.15.9",
     "parallel-synchronization-and-communication-instructions-mbarrier-init", "9.7.15.16.12",
     "parallel-synchronization-and-communication-instructions-mbarrier-init"),
    ("MbarrierInval", "9.7.13.15.10", "", "9.7.15.16.13",
     "parallel-synchronization-and-communication-instructions-mbarrier-inval"),
    ("MbarrierExpectTx", "9.7.13.15.11", "", "9.7.15.16.14",
     "parallel-synchronization-and-communication-instructions-mbarrier-expect-tx"),
    ("MbarrierCompleteTx", "9.7.13.15.12",
     "parallel-synchronization-and-communication-instructions-mbarrier-complete-tx",
     "9.7.15.16.15",
     "parallel-synchronization-and-communication-instructions-mbarrier-complete-tx"),
    ("MbarrierArrive", "9.7.13.15.13",
     "parallel-synchronization-and-communication-instructions-mbarrier-arrive", "9.7.15.16.16",
     "parallel-synchronization-and-communication-instructions-mbarrier-arrive"),
    ("MbarrierArriveDrop", "9.7.13.15.14",
     "parallel-synchronization-and-communication-instructions-mbarrier-arrive-drop",
     "9.7.15.16.17",
     "parallel-synchronization-and-communication-instructions-mbarrier-arrive-drop"),
    ("CpAsyncMbarrierArrive", "9.7.13.15.15",
     "parallel-synchronization-and-communication-instructions-cp-async-mbarrier-arrive",
     "9.7.15.16.18",
     "parallel-synchronization-and-communication-instructions-cp-async-mbarrier-arrive"),
    ("MbarrierTestWaitTryWait", "9.7.13.15.16",
     "parallel-synchronization-and-communication-instructions-mbarrier-test-wait-try-wait",
     "9.7.15.16.19",
     "parallel-synchronization-and-communication-instructions-mbarrier-test-wait-try-wait"),
    ("TensormapCpFenceproxy", "9.7.13.16",
     "parallel-synchronization-and-communication-instructions-tensormap-cp-fenceproxy",
     "9.7.15.17",
     "parallel-synchronization-and-communication-instructions-tensormap-cp-fenceproxy"),
    ("Tcgen05", "9.7.16", "", "9.7.18", "tensorcore-5th-generation-instructions"),
    ("TensorMemory", "9.7.16.1", "tensor-memory", "9.7.18.1", "tensor-memory"),
    ("Tcgen05IssueGranularity", "9.7.16.5", "tcgen05-issue-granularity", "9.7.18.5",
     "tcgen05-issue-granularity"),
    ("Tcgen05AsyncOperations", "9.7.16.6.1", "tcgen05-memory-consistency-model-async-operations",
     "9.7.18.6.1", "tcgen05-memory-consistency-model-async-operations"),
    ("Tcgen05Pipelined", "9.7.16.6.2", "tcgen05-memory-consistency-model-pipelined-instructions",
     "9.7.18.6.2", "tcgen05-memory-consistency-model-pipelined-instructions"),
    ("Tcgen05MbarrierCompletion", "9.7.16.6.2.1.1",
     "tcgen05-memory-consistency-model-mbarrier-completion", "9.7.18.6.2.1.1",
     "tcgen05-memory-consistency-model-mbarrier-completion"),
    ("Tcgen05WaitCompletion", "9.7.16.6.2.1.2", "tcgen05-memory-consistency-model-wait-completion",
     "9.7.18.6.2.1.2", "tcgen05-memory-consistency-model-wait-completion"),
    ("Tcgen05InterThreadSync", "9.7.16.6.3", "tcgen05-memory-consistency-model-inter-thread-sync",
     "9.7.18.6.3", "tcgen05-memory-consistency-model-inter-thread-sync"),
    ("Tcgen05NonPipelinedSameThread", "9.7.16.6.4.2",
     "tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-same-thread",
     "9.7.18.6.4.2",
     "tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-same-thread"),
    ("Tcgen05PipelinedDiffThread", "9.7.16.6.4.3",
     "tcgen05-memory-consistency-model-canonical-sync-patterns-pipelined-diff-thread",
     "9.7.18.6.4.3",
     "tcgen05-memory-consistency-model-canonical-sync-patterns-pipelined-diff-thread"),
    ("Tcgen05NonPipelinedDiffThread", "9.7.16.6.4.4",
     "tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-diff-thread",
     "9.7.18.6.4.4",
     "tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-diff-thread"),
    ("Tcgen05RegisterDependency", "9.7.16.6.4.5",
     "tcgen05-memory-consistency-model-canonical-sync-patterns-reg-dependency-same-thread",
     "9.7.18.6.4.5",
     "tcgen05-memory-consistency-model-canonical-sync-patterns-reg-dependency-same-thread"),
    ("Tcgen05SmemAccess", "9.7.16.6.5", "tcgen05-memory-consistency-model-smem-access",
     "9.7.18.6.5", "tcgen05-memory-consistency-model-smem-access"),
    ("Tcgen05Alloc", "9.7.16.7.1",
     "tcgen05-instructions-tcgen05-alloc-dealloc-relinquish-alloc-permit", "9.7.18.7.1",
     "tcgen05-instructions-tcgen05-alloc-dealloc-relinquish-alloc-permit"),
    ("Tcgen05Ld", "9.7.16.8.3", "tcgen05-instructions-tcgen05-ld", "9.7.18.8.3",
     "tcgen05-instructions-tcgen05-ld"),
    ("Tcgen05St", "9.7.16.8.4", "", "9.7.18.8.4", "tcgen05-instructions-tcgen05-st"),
    ("Tcgen05Wait", "9.7.16.8.5", "tcgen05-instructions-tcgen05-wait", "9.7.18.8.5",
     "tcgen05-instructions-tcgen05-wait"),
    ("Tcgen05Cp", "9.7.16.9.1", "", "9.7.18.9.2", "tcgen05-instructions-tcgen05-cp"),
    ("Tcgen05Shift", "9.7.16.9.2", "", "9.7.18.9.3", "tcgen05-instructions-tcgen05-shift"),
    ("Tcgen05Mma", "9.7.16.10", "tcgen05-mma-instructions-mma", "9.7.18.10.10.1",
     "tcgen05-mma-instructions-mma"),
    ("Tcgen05Fence", "9.7.16.11.1", "tcgen05-special-sync-operations-fence", "9.7.18.11.1",
     "tcgen05-special-sync-operations-fence"),
    ("Tcgen05Commit", "9.7.16.12.1", "tcgen-async-sync-operations-commit", "9.7.18.12.1",
     "tcgen-async-sync-operations-commit"),
    ("Nanosleep", "9.7.19.2", "miscellaneous-instructions-nanosleep", "9.7.21.2",
     "miscellaneous-instructions-nanosleep"),
]

# (number, anchor) pairs the prose cites that are not rows of the table, or that spell a row's
# anchor with a number the 9.1 table did not give it: -> (9.4 number, 9.4 anchor).
EXTRA_PAIRS = {
    # anchors the 9.4 text does not have
    ("8.7", "data-race"): ("8.7.1", "conflict-and-data-races"),
    ("8.9.7", "data-races"): ("8.7.1", "conflict-and-data-races"),
    ("8.8", "release-and-acquire-patterns"): ("8.8", "release-acquire-patterns"),
    ("8.9", "memory-consistency-model-axioms"): ("8.10", "axioms"),
    ("8.9.5", "base-causality-order"): ("8.9.5", "causality-order"),
    ("8.10.5", "sc-per-location-axiom"): ("8.10.5", "sc-per-loc-axiom"),
    # sections without a row
    ("9.7.16.6", "tcgen05-memory-consistency-model"): ("9.7.18.6", "tcgen05-memory-consistency-model"),
    ("9.7.16.6.2.1", "tcgen05-memory-consistency-model-pipelined-instructions-implicit"):
        ("9.7.18.6.2.1", "tcgen05-memory-consistency-model-pipelined-instructions-implicit"),
    ("9.7.16.6.4.1", "tcgen05-memory-consistency-model-canonical-sync-patterns-pipelined-same-thread"):
        ("9.7.18.6.4.1", "tcgen05-memory-consistency-model-canonical-sync-patterns-pipelined-same-thread"),
    # a row's anchor under another (9.1) number: the anchor names the section
    ("9.7.3.1", "comparison-and-selection-instructions-setp"):
        ("9.7.7.2", "comparison-and-selection-instructions-setp"),
    ("9.7.8", "control-flow-instructions"): ("9.7.14", "control-flow-instructions"),
    ("9.7.8.5", "control-flow-instructions-exit"): ("9.7.14.7", "control-flow-instructions-exit"),
    # the vocabulary's proxy-fence rows: the implicit generic-async proxy fence at completion of
    # a bulk copy is a sentence of the Async Proxy section (the number was right)
    ("9.7.9.25.2", "data-movement-and-conversion-instructions-cp-async-bulk"):
        ("9.7.10.28.2", "async-proxy"),
    ("9.7.9.25.5", "data-movement-and-conversion-instructions-cp-async-bulk-tensor"):
        ("9.7.10.28.5.3", "data-movement-and-conversion-instructions-cp-async-bulk-tensor"),
    ("9.7.13.1", "parallel-synchronization-and-communication-instructions-bar"):
        ("9.7.15.1", "parallel-synchronization-and-communication-instructions-bar"),
    ("9.7.13.15.2", "parallel-synchronization-and-communication-instructions-mbarrier-contents"):
        ("9.7.15.16.3", "parallel-synchronization-and-communication-instructions-mbarrier-contents"),
}

# Sections of the 9.4 text that no row names, read from the 9.4 text: left as they are.
VALID_94 = {
    ("8", "memory-consistency-model"),
    ("8.2", "memory-operations"),
    ("8.7.1", "conflict-and-data-races"),
    ("8.9", "ordering-memory-operations"),
    ("8.9.4", "memory-synchronization"),
    ("8.9.5", "causality-order"),
    ("8.9.7", "communication-order"),
    ("8.10", "axioms"),
    ("8.10.1", "coherence-axiom"),
    ("8.10.2", "fence-sc-axiom"),
    ("8.10.3", "atomicity-axiom"),
    ("8.10.4", "no-thin-air-axiom"),
    ("8.10.5", "sc-per-loc-axiom"),
    ("8.10.6", "causality-axiom"),
    ("9.7.15.16.1", "parallel-synchronization-and-communication-instructions-mbarrier-size-alignment"),
    ("9.7.15.16.2", "parallel-synchronization-and-communication-instructions-mbarrier-object-layout"),
    ("9.7.15.16.4", "parallel-synchronization-and-communication-instructions-mbarrier-lifecycle"),
    ("9.7.15.16.6", "parallel-synchronization-and-communication-instructions-mbarrier-tracking-async-operations"),
    ("9.7.15.16.10", "parallel-synchronization-and-communication-instructions-mbarrier-report-on"),
    ("9.7.15.16.11", "parallel-synchronization-and-communication-instructions-mbarrier-smem"),
    ("9.7.18.6.4", "tcgen05-memory-consistency-model-canonical-sync-patterns"),
    ("9.7.18.7", "tcgen05-memory-alloc-manage-instructions"),
    ("9.7.18.10", "tcgen05-mma"),
    ("9.7.18.10.10", "tcgen05-mma-instructions"),
    ("9.7.18.11", "tcgen05-special-sync-operations"),
    ("9.7.18.12", "tcgen-async-sync-operations"),
    ("9.7.15", "parallel-synchronization-and-communication-instructions"),
    ("9.7.10", "data-movement-and-conversion-instructions"),
}

# 9.1 chapter-9.7 numbers cited alone that are not rows: -> 9.4 number.
EXTRA_NUMBERS = {
    "9.7.9": "9.7.10",          # Data Movement and Conversion Instructions
    "9.7.13": "9.7.15",         # Parallel Synchronization and Communication Instructions
    "9.7.16.6": "9.7.18.6",     # Memory Consistency Model for tcgen05
    "9.7.16.6.2.1": "9.7.18.6.2.1",
    "9.7.16.6.4.1": "9.7.18.6.4.1",
}

# Exact phrases, replaced before the citations are mapped.
OVERRIDES = [
    # count ranges: 9.1's 9.7.13.15.1 is "Size and alignment"; 9.4 gives the ranges (Table 43)
    # in "Contents of the mbarrier object"
    ("(tx count from 0) (9.7.13.15.1)", "(tx count from 0) (9.7.15.16.3)"),
    ("(PTX ISA 9.0/9.1 section 9.7.16.6,", "(PTX ISA 9.4 section 9.7.18.6,"),
    # the vocabulary's `loc` row cites {MemoryConsistencyModel} without its anchor (8.2 -> 8)
    ("| PTX ISA 8.2 |", "| PTX ISA 8 |"),
    ("numbers follow the 9.1 text, the anchors do not move", "numbers follow the 9.4 text"),
    # the nanosleep commit already named the 9.4 number beside the 9.1 one
    ("#miscellaneous-instructions-nanosleep; 9.7.21.2 in the 9.4 text)",
     "#miscellaneous-instructions-nanosleep)"),
]

# Anchors the 9.4 text spells differently: renamed wherever they stand (after a number, alone on
# a comment line, or inside a link to the PTX ISA page).
RENAMED_ANCHORS = {
    "parallel-synchronization-and-communication-instructions-bar-barrier":
        "parallel-synchronization-and-communication-instructions-bar",
}

# Files that must keep 9.1 numbers: the table itself (its comments name the old numbers) and
# the document that maps them.
EXCLUDE = {"src/ptx/Sections.cpp", "docs/ptx-9.4.md", "scripts/renumber-citations-9.4.py"}
# Outputs of ptxmc itself: regenerate them after the run instead (see tests/docs.cmake and
# tests/validate/uptodate.cmake), and recorded GPU results, which are data:
#   build/ptxmc matrix --out-dir docs
#   build/ptxmc patterns --jobs 2 --links-from docs -o docs/patterns.md litmus/kernels
#   build/ptxmc gen-cuda --mutants validate/mutants.txt -o validate/generated <MANIFEST files>
GENERATED = ("docs/reordering.", "docs/seed-guide-check.", "docs/matrix/", "docs/patterns.md",
             "validate/generated/", "validate/results/")
BINARY_SUFFIXES = (".png", ".jpg", ".gif", ".pdf", ".gz", ".zip", ".ico")


def build_maps():
    pairs, numbers, keys = {}, {}, {}
    new_pairs = set()
    for key, on, oa, nn, na in ROWS:
        if oa:
            pairs[(on, oa)] = (nn, na)
        pairs[(on, na)] = (nn, na)  # the anchors are stable: the 9.1 text had the 9.4 anchor too
        new_pairs.add((nn, na))
        keys[key] = na
        if on.startswith("9.7."):
            numbers[on] = nn
    pairs.update(EXTRA_PAIRS)
    new_pairs.update(EXTRA_PAIRS.values())
    new_pairs.update(VALID_94)
    numbers.update(EXTRA_NUMBERS)
    for p in new_pairs:  # a 9.4 pair maps to itself (idempotence)
        pairs.setdefault(p, p)
    # No old number may be a 9.4 number: otherwise a second run would move it again.
    clash = set(numbers) & {n for n, _ in new_pairs}
    assert not clash, f"old numbers that are also 9.4 numbers: {sorted(clash)}"
    for (on, oa), (nn, na) in pairs.items():
        assert pairs[(nn, na)] == (nn, na), (on, oa, nn, na)
    return pairs, numbers, keys


PAIRS, NUMBERS, KEYS = build_maps()

CITE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)+)(?:(\s?\(?)#([a-z0-9][a-z0-9-]*))?(?!\w|\.\d)")
URL_ANCHOR = re.compile(r"(parallel-thread-execution/[^\s)#]*#)([a-z0-9][a-z0-9-]*)")
BARE_ANCHOR = re.compile(r"(?<![\w/])#([a-z0-9][a-z0-9-]*)")  # an anchor cited alone
KEY_ANCHOR = re.compile(r"\{(\w+)\} #[a-z0-9][a-z0-9-]*")


def renumber(text, where, problems):
    for old, new in OVERRIDES:
        text = text.replace(old, new)

    def key_anchor(m):
        return "{%s#}" % m.group(1) if m.group(1) in KEYS else m.group(0)

    text = KEY_ANCHOR.sub(key_anchor, text)
    text = BARE_ANCHOR.sub(lambda m: "#" + RENAMED_ANCHORS.get(m.group(1), m.group(1)), text)
    text = URL_ANCHOR.sub(lambda m: m.group(1) + RENAMED_ANCHORS.get(m.group(2), m.group(2)),
                          text)

    def cite(m):
        number, sep, anchor = m.group(1), m.group(2), m.group(3)
        if anchor is None:
            return NUMBERS.get(number, number)
        new = PAIRS.get((number, anchor))
        if new is None:
            if number.count(".") >= 2 or number.startswith(("5.", "8.", "9.")):
                problems.append(f"{where}: unknown citation {number} #{anchor}")
            return m.group(0)
        return f"{new[0]}{sep}#{new[1]}"

    return CITE.sub(cite, text)


def tracked_files():
    out = subprocess.run(["git", "ls-files", "-z"], check=True, capture_output=True).stdout
    return [f for f in out.decode().split("\0") if f]


def main(argv):
    check = "--check" in argv
    files = [a for a in argv if a != "--check"] or tracked_files()
    problems, changed = [], []
    for f in files:
        if f in EXCLUDE or f.endswith(BINARY_SUFFIXES) or f.startswith(GENERATED):
            continue
        try:
            with open(f, encoding="utf-8") as fh:
                text = fh.read()
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        if "\0" in text:
            continue
        new = "\n".join(renumber(line, f"{f}:{i + 1}", problems)
                        for i, line in enumerate(text.split("\n")))
        if new != text:
            changed.append(f)
            if not check:
                with open(f, "w", encoding="utf-8") as fh:
                    fh.write(new)
    for p in problems:
        print("warning:", p, file=sys.stderr)
    print(f"{'would change' if check else 'changed'} {len(changed)} files", file=sys.stderr)
    for f in changed:
        print(f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
