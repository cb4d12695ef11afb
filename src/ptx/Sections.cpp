// The PTX ISA sections the code cites: the one table of section numbers and HTML anchors.
#include "ptx/Sections.hpp"

#include <array>
#include <iterator>

namespace ptxmc::ptx {

namespace {

struct SectionRow {
    Sec key;
    std::string_view name; ///< the enumerator's name, as `{Name}` in expandCitations
    std::string_view number;
    std::string_view anchor;
};

// Numbers and anchors follow the PTX ISA 9.4 text (docs/ptx-9.4.md maps each row from the 9.1
// numbering: the sections added in 9.2-9.4 moved most of chapter 9, the anchors stayed).
constexpr std::string_view kIsaVersion = "9.4";

constexpr SectionRow kRows[] = {
    {Sec::StateSpaces, "StateSpaces", "5.1", "state-spaces"},
    {Sec::SharedStateSpace, "SharedStateSpace", "5.1.7", "shared-state-space"},
    {Sec::TensorMap, "TensorMap", "5.5.8", "tensor-tensormap"},
    // The chapter: "each read operation returns the value committed by some write operation to
    // the same memory location, including the initial write to that memory location" (8.2,
    // Memory operations, #memory-operations, defines the memory location itself).
    {Sec::MemoryConsistencyModel, "MemoryConsistencyModel", "8", "memory-consistency-model"},
    {Sec::OperationTypes, "OperationTypes", "8.4", "operation-types"},
    {Sec::Scope, "Scope", "8.5", "scope"},
    {Sec::Proxies, "Proxies", "8.6", "proxies"},
    {Sec::MorallyStrong, "MorallyStrong", "8.7", "morally-strong-operations"},
    {Sec::ReleaseAcquirePatterns, "ReleaseAcquirePatterns", "8.8", "release-acquire-patterns"},
    {Sec::ProgramOrder, "ProgramOrder", "8.9.1", "program-order"},
    {Sec::ProgramOrderAsync, "ProgramOrderAsync", "8.9.1.1", "program-order-async-operations"},
    {Sec::ObservationOrder, "ObservationOrder", "8.9.2", "observation-order"},
    {Sec::FenceScOrder, "FenceScOrder", "8.9.3", "fence-sc-order"},
    {Sec::CoherenceOrder, "CoherenceOrder", "8.9.6", "coherence-order"},
    // No Thin Air: "chains of instruction dependencies and inter-thread communication".
    {Sec::Dependencies, "Dependencies", "8.10.4", "no-thin-air-axiom"},
    {Sec::PredicatedExecution, "PredicatedExecution", "9.3", "predicated-execution"},
    {Sec::Setp, "Setp", "9.7.7.2", "comparison-and-selection-instructions-setp"},
    {Sec::ControlFlow, "ControlFlow", "9.7.14", "control-flow-instructions"},
    {Sec::Bra, "Bra", "9.7.14.3", "control-flow-instructions-bra"},
    {Sec::Exit, "Exit", "9.7.14.7", "control-flow-instructions-exit"},
    {Sec::Ret, "Ret", "9.7.14.6", "control-flow-instructions-ret"},
    {Sec::Mov, "Mov", "9.7.10.3", "data-movement-and-conversion-instructions-mov"},
    {Sec::StAsync, "StAsync", "9.7.10.12", "data-movement-and-conversion-instructions-st-async"},
    {Sec::AsyncCopies, "AsyncCopies", "9.7.10.28",
     "data-movement-and-conversion-instructions-asynchronous-copy"},
    {Sec::CpAsyncCompletion, "CpAsyncCompletion", "9.7.10.28.1",
     "data-movement-and-conversion-instructions-asynchronous-copy-completion-mechanisms"},
    {Sec::CpAsyncGroups, "CpAsyncGroups", "9.7.10.28.1.1",
     "data-movement-and-conversion-instructions-asynchronous-copy-completion-mechanisms-async-"
     "group"},
    {Sec::CpAsyncMbarrierMechanism, "CpAsyncMbarrierMechanism", "9.7.10.28.1.2",
     "data-movement-and-conversion-instructions-asynchronous-copy-completion-mechanisms-mbarrier"},
    {Sec::AsyncCopyReportMechanisms, "AsyncCopyReportMechanisms", "9.7.10.28.1.3",
     "data-movement-and-conversion-instructions-asynchronous-copy-report-mechanisms"},
    {Sec::AsyncProxy, "AsyncProxy", "9.7.10.28.2", "async-proxy"},
    {Sec::NonBulkCopies, "NonBulkCopies", "9.7.10.28.3",
     "data-movement-and-conversion-instructions-non-bulk-copy"},
    {Sec::CpAsync, "CpAsync", "9.7.10.28.3.1",
     "data-movement-and-conversion-instructions-cp-async"},
    {Sec::CpAsyncCommitGroup, "CpAsyncCommitGroup", "9.7.10.28.3.2",
     "data-movement-and-conversion-instructions-cp-async-commit-group"},
    {Sec::CpAsyncWaitGroup, "CpAsyncWaitGroup", "9.7.10.28.3.3",
     "data-movement-and-conversion-instructions-cp-async-wait-group"},
    {Sec::BulkCopies, "BulkCopies", "9.7.10.28.4",
     "data-movement-and-conversion-instructions-bulk-copy"},
    {Sec::CpAsyncBulk, "CpAsyncBulk", "9.7.10.28.4.1",
     "data-movement-and-conversion-instructions-cp-async-bulk"},
    {Sec::CpReduceAsyncBulk, "CpReduceAsyncBulk", "9.7.10.28.4.2",
     "data-movement-and-conversion-instructions-cp-reduce-async-bulk"},
    {Sec::CpAsyncBulkPrefetch, "CpAsyncBulkPrefetch", "9.7.10.28.4.3",
     "data-movement-and-conversion-instructions-cp-async-bulk-prefetch"},
    {Sec::CpAsyncBulkPrefetchTensor, "CpAsyncBulkPrefetchTensor", "9.7.10.28.5.5",
     "data-movement-and-conversion-instructions-cp-async-bulk-prefetch-tensor"},
    {Sec::TensorBaseAddressOverride, "TensorBaseAddressOverride", "9.7.10.28.5.2.1",
     "data-movement-and-conversion-instructions-tensor-base-address-override"},
    {Sec::TensorCopies, "TensorCopies", "9.7.10.28.5",
     "data-movement-and-conversion-instructions-tensor-copy"},
    // 9.7.10.28.5.2 is "Overriding tensor property value" in 9.4 (new): the instruction moved down.
    {Sec::CpAsyncBulkTensor, "CpAsyncBulkTensor", "9.7.10.28.5.3",
     "data-movement-and-conversion-instructions-cp-async-bulk-tensor"},
    {Sec::CpReduceAsyncBulkTensor, "CpReduceAsyncBulkTensor", "9.7.10.28.5.4",
     "data-movement-and-conversion-instructions-cp-reduce-async-bulk-tensor"},
    {Sec::BulkGroups, "BulkGroups", "9.7.10.28.6",
     "data-movement-and-conversion-instructions-bulk-tensor-copy-completion"},
    {Sec::CpAsyncBulkCommitGroup, "CpAsyncBulkCommitGroup", "9.7.10.28.6.1",
     "data-movement-and-conversion-instructions-cp-async-bulk-commit-group"},
    {Sec::CpAsyncBulkWaitGroup, "CpAsyncBulkWaitGroup", "9.7.10.28.6.2",
     "data-movement-and-conversion-instructions-cp-async-bulk-wait-group"},
    {Sec::TensormapReplace, "TensormapReplace", "9.7.10.29",
     "data-movement-and-conversion-instructions-tensormap-replace"},
    // The 9.4 page anchors bar/barrier as "...-bar" (the 9.1 row spelled "...-bar-barrier").
    {Sec::BarBarrier, "BarBarrier", "9.7.15.1",
     "parallel-synchronization-and-communication-instructions-bar"},
    {Sec::BarrierCluster, "BarrierCluster", "9.7.15.3",
     "parallel-synchronization-and-communication-instructions-barrier-cluster"},
    {Sec::Membar, "Membar", "9.7.15.4",
     "parallel-synchronization-and-communication-instructions-membar"},
    {Sec::Atom, "Atom", "9.7.15.5", "parallel-synchronization-and-communication-instructions-atom"},
    {Sec::Red, "Red", "9.7.15.6", "parallel-synchronization-and-communication-instructions-red"},
    {Sec::Elect, "Elect", "9.7.15.15",
     "parallel-synchronization-and-communication-instructions-elect-sync"},
    {Sec::Mbarrier, "Mbarrier", "9.7.15.16",
     "parallel-synchronization-and-communication-instructions-mbarrier"},
    // mbarrier order: the object and what it keeps track of ("Contents of the mbarrier object").
    {Sec::MbarrierOrder, "MbarrierOrder", "9.7.15.16.3",
     "parallel-synchronization-and-communication-instructions-mbarrier-contents"},
    // 9.3 added layouts and the primary/conditional phases: 9.7.15.16.5 holds both phases.
    {Sec::MbarrierPhase, "MbarrierPhase", "9.7.15.16.5",
     "parallel-synchronization-and-communication-instructions-mbarrier-phase"},
    {Sec::MbarrierConditionalPhase, "MbarrierConditionalPhase", "9.7.15.16.5.2",
     "parallel-synchronization-and-communication-instructions-mbarrier-conditional-phase"},
    {Sec::MbarrierTrackingAsync, "MbarrierTrackingAsync", "9.7.15.16.6",
     "parallel-synchronization-and-communication-instructions-mbarrier-tracking-async-operations"},
    {Sec::MbarrierExpectTxOperation, "MbarrierExpectTxOperation", "9.7.15.16.6.1",
     "parallel-synchronization-and-communication-instructions-mbarrier-expect-tx-operation"},
    {Sec::MbarrierCompleteTxOperation, "MbarrierCompleteTxOperation", "9.7.15.16.6.2",
     "parallel-synchronization-and-communication-instructions-mbarrier-complete-tx-operation"},
    {Sec::MbarrierTracking, "MbarrierTracking", "9.7.15.16.7",
     "parallel-synchronization-and-communication-instructions-mbarrier-tracking"},
    {Sec::MbarrierPhaseCompletion, "MbarrierPhaseCompletion", "9.7.15.16.8",
     "parallel-synchronization-and-communication-instructions-mbarrier-phase-completion"},
    {Sec::MbarrierArriveOn, "MbarrierArriveOn", "9.7.15.16.9",
     "parallel-synchronization-and-communication-instructions-mbarrier-arrive-on"},
    {Sec::MbarrierReportOn, "MbarrierReportOn", "9.7.15.16.10",
     "parallel-synchronization-and-communication-instructions-mbarrier-report-on"},
    {Sec::MbarrierInit, "MbarrierInit", "9.7.15.16.12",
     "parallel-synchronization-and-communication-instructions-mbarrier-init"},
    {Sec::MbarrierInval, "MbarrierInval", "9.7.15.16.13",
     "parallel-synchronization-and-communication-instructions-mbarrier-inval"},
    {Sec::MbarrierExpectTx, "MbarrierExpectTx", "9.7.15.16.14",
     "parallel-synchronization-and-communication-instructions-mbarrier-expect-tx"},
    {Sec::MbarrierCompleteTx, "MbarrierCompleteTx", "9.7.15.16.15",
     "parallel-synchronization-and-communication-instructions-mbarrier-complete-tx"},
    {Sec::MbarrierArrive, "MbarrierArrive", "9.7.15.16.16",
     "parallel-synchronization-and-communication-instructions-mbarrier-arrive"},
    {Sec::MbarrierArriveDrop, "MbarrierArriveDrop", "9.7.15.16.17",
     "parallel-synchronization-and-communication-instructions-mbarrier-arrive-drop"},
    {Sec::CpAsyncMbarrierArrive, "CpAsyncMbarrierArrive", "9.7.15.16.18",
     "parallel-synchronization-and-communication-instructions-cp-async-mbarrier-arrive"},
    {Sec::MbarrierTestWaitTryWait, "MbarrierTestWaitTryWait", "9.7.15.16.19",
     "parallel-synchronization-and-communication-instructions-mbarrier-test-wait-try-wait"},
    {Sec::MbarrierPendingCount, "MbarrierPendingCount", "9.7.15.16.20",
     "parallel-synchronization-and-communication-instructions-mbarrier-pending-count"},
    {Sec::MbarrierCheckLayout, "MbarrierCheckLayout", "9.7.15.16.21",
     "parallel-synchronization-and-communication-instructions-mbarrier-check-layout"},
    {Sec::TensormapCpFenceproxy, "TensormapCpFenceproxy", "9.7.15.17",
     "parallel-synchronization-and-communication-instructions-tensormap-cp-fenceproxy"},
    {Sec::Tcgen05, "Tcgen05", "9.7.18", "tensorcore-5th-generation-instructions"},
    {Sec::TensorMemory, "TensorMemory", "9.7.18.1", "tensor-memory"},
    {Sec::Tcgen05IssueGranularity, "Tcgen05IssueGranularity", "9.7.18.5",
     "tcgen05-issue-granularity"},
    {Sec::Tcgen05AsyncOperations, "Tcgen05AsyncOperations", "9.7.18.6.1",
     "tcgen05-memory-consistency-model-async-operations"},
    {Sec::Tcgen05Pipelined, "Tcgen05Pipelined", "9.7.18.6.2",
     "tcgen05-memory-consistency-model-pipelined-instructions"},
    {Sec::Tcgen05MbarrierCompletion, "Tcgen05MbarrierCompletion", "9.7.18.6.2.1.1",
     "tcgen05-memory-consistency-model-mbarrier-completion"},
    {Sec::Tcgen05WaitCompletion, "Tcgen05WaitCompletion", "9.7.18.6.2.1.2",
     "tcgen05-memory-consistency-model-wait-completion"},
    {Sec::Tcgen05InterThreadSync, "Tcgen05InterThreadSync", "9.7.18.6.3",
     "tcgen05-memory-consistency-model-inter-thread-sync"},
    {Sec::Tcgen05NonPipelinedSameThread, "Tcgen05NonPipelinedSameThread", "9.7.18.6.4.2",
     "tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-same-thread"},
    {Sec::Tcgen05PipelinedDiffThread, "Tcgen05PipelinedDiffThread", "9.7.18.6.4.3",
     "tcgen05-memory-consistency-model-canonical-sync-patterns-pipelined-diff-thread"},
    {Sec::Tcgen05NonPipelinedDiffThread, "Tcgen05NonPipelinedDiffThread", "9.7.18.6.4.4",
     "tcgen05-memory-consistency-model-canonical-sync-patterns-non-pipelined-diff-thread"},
    {Sec::Tcgen05RegisterDependency, "Tcgen05RegisterDependency", "9.7.18.6.4.5",
     "tcgen05-memory-consistency-model-canonical-sync-patterns-reg-dependency-same-thread"},
    {Sec::Tcgen05SmemAccess, "Tcgen05SmemAccess", "9.7.18.6.5",
     "tcgen05-memory-consistency-model-smem-access"},
    {Sec::Tcgen05Alloc, "Tcgen05Alloc", "9.7.18.7.1",
     "tcgen05-instructions-tcgen05-alloc-dealloc-relinquish-alloc-permit"},
    {Sec::Tcgen05AccessRestrictions, "Tcgen05AccessRestrictions", "9.7.18.8.1",
     "tcgen05-tensor-memory-ld-st-access-restrictions"},
    {Sec::Tcgen05Ld, "Tcgen05Ld", "9.7.18.8.3", "tcgen05-instructions-tcgen05-ld"},
    {Sec::Tcgen05St, "Tcgen05St", "9.7.18.8.4", "tcgen05-instructions-tcgen05-st"},
    {Sec::Tcgen05Wait, "Tcgen05Wait", "9.7.18.8.5", "tcgen05-instructions-tcgen05-wait"},
    // 9.7.18.9.1 is "Optional Decompression" in 9.4 (new): cp and shift moved down one.
    {Sec::Tcgen05Cp, "Tcgen05Cp", "9.7.18.9.2", "tcgen05-instructions-tcgen05-cp"},
    {Sec::Tcgen05Shift, "Tcgen05Shift", "9.7.18.9.3", "tcgen05-instructions-tcgen05-shift"},
    // The instruction itself; 9.7.18.10 (#tcgen05-mma) is the whole MMA chapter.
    {Sec::Tcgen05Mma, "Tcgen05Mma", "9.7.18.10.10.1", "tcgen05-mma-instructions-mma"},
    // added for the 9.4 text's tcgen05.mma variants: the MMA chapter's operand table and
    // collector buffers, block scaling, sparse A, and the .sp / .ws / .ws.sp instructions
    {Sec::Tcgen05MmaOperations, "Tcgen05MmaOperations", "9.7.18.10", "tcgen05-mma"},
    {Sec::Tcgen05BlockScaling, "Tcgen05BlockScaling", "9.7.18.10.7", "tcgen05-block-scaling"},
    {Sec::Tcgen05SparseMatrices, "Tcgen05SparseMatrices", "9.7.18.10.9", "tcgen05-sparse-matrices"},
    {Sec::Tcgen05MmaSp, "Tcgen05MmaSp", "9.7.18.10.10.2", "tcgen05-mma-instructions-mma-sp"},
    {Sec::Tcgen05MmaWs, "Tcgen05MmaWs", "9.7.18.10.10.3", "tcgen05-mma-instructions-mma-ws"},
    {Sec::Tcgen05MmaWsSp, "Tcgen05MmaWsSp", "9.7.18.10.10.4", "tcgen05-mma-instructions-mma-ws-sp"},
    {Sec::Tcgen05Fence, "Tcgen05Fence", "9.7.18.11.1", "tcgen05-special-sync-operations-fence"},
    {Sec::Tcgen05Commit, "Tcgen05Commit", "9.7.18.12.1", "tcgen-async-sync-operations-commit"},
    // 9.7.19.2 in the 9.1 text, 9.7.20.2 in 9.3: the sections added before Miscellaneous
    // Instructions moved it, not the anchor.
    {Sec::Nanosleep, "Nanosleep", "9.7.21.2", "miscellaneous-instructions-nanosleep"},
    // added for the 9.4 text: warpgroup MMA, 9.7.17 in 9.4 (9.7.15 in the 9.1 text)
    {Sec::Wgmma, "Wgmma", "9.7.17", "asynchronous-warpgroup-level-matrix-instructions"},
    {Sec::WgmmaAsyncProxy, "WgmmaAsyncProxy", "9.7.17.4",
     "asynchronous-warpgroup-level-matrix-async-proxy"},
    {Sec::WgmmaMmaAsync, "WgmmaMmaAsync", "9.7.17.5.2",
     "asynchronous-warpgroup-level-matrix-instructions-wgmma-mma"},
    {Sec::WgmmaMmaAsyncSp, "WgmmaMmaAsyncSp", "9.7.17.6.3",
     "asynchronous-warpgroup-level-matrix-instructions-wgmma-mma-sp"},
    {Sec::WgmmaFence, "WgmmaFence", "9.7.17.7.1",
     "asynchronous-warpgroup-level-matrix-instructions-wgmma-fence"},
    {Sec::WgmmaCommitGroup, "WgmmaCommitGroup", "9.7.17.7.2",
     "asynchronous-warpgroup-level-matrix-instructions-wgmma-commit-group"},
    {Sec::WgmmaWaitGroup, "WgmmaWaitGroup", "9.7.17.7.3",
     "asynchronous-warpgroup-level-matrix-instructions-wgmma-wait-group"},
    // added for the 9.4 text (numbers of the 9.4 text)
    {Sec::RedAsync, "RedAsync", "9.7.15.7",
     "parallel-synchronization-and-communication-instructions-red-async"},
    {Sec::Setmaxnreg, "Setmaxnreg", "9.7.21.5", "miscellaneous-instructions-setmaxnreg"},
    {Sec::Griddepcontrol, "Griddepcontrol", "9.7.15.14",
     "parallel-synchronization-and-communication-instructions-griddepcontrol"},
    {Sec::Ldmatrix, "Ldmatrix", "9.7.16.5.15", "warp-level-matrix-instructions-ldmatrix"},
    {Sec::Stmatrix, "Stmatrix", "9.7.16.5.16", "warp-level-matrix-instructions-stmatrix"},
    // added for the 9.4 text
    {Sec::RedRead, "RedRead", "8.11.1", "red-read"},
    {Sec::BarWarpSync, "BarWarpSync", "9.7.15.2",
     "parallel-synchronization-and-communication-instructions-bar-warp-sync"},
    {Sec::Vote, "Vote", "9.7.15.9",
     "parallel-synchronization-and-communication-instructions-vote-deprecated"},
    {Sec::VoteSync, "VoteSync", "9.7.15.10",
     "parallel-synchronization-and-communication-instructions-vote-sync"},
    {Sec::MatchSync, "MatchSync", "9.7.15.11",
     "parallel-synchronization-and-communication-instructions-match-sync"},
    {Sec::Activemask, "Activemask", "9.7.15.12",
     "parallel-synchronization-and-communication-instructions-activemask"},
    {Sec::ReduxSync, "ReduxSync", "9.7.15.13",
     "parallel-synchronization-and-communication-instructions-redux-sync"},
    {Sec::FloatMin, "FloatMin", "9.7.3.11", "floating-point-instructions-min"},
    {Sec::FloatMax, "FloatMax", "9.7.3.12", "floating-point-instructions-max"},
    {Sec::ClcTryCancel, "ClcTryCancel", "9.7.15.18",
     "parallel-synchronization-and-communication-instructions-clusterlaunchcontrol-try-cancel"},
    {Sec::ClcQueryCancel, "ClcQueryCancel", "9.7.15.19",
     "parallel-synchronization-and-communication-instructions-clusterlaunchcontrol-query-cancel"},
    {Sec::MultimemAddresses, "MultimemAddresses", "8.2.3", "multimem-addresses"},
    {Sec::Multimem, "Multimem", "9.7.10.15", "data-movement-and-conversion-instructions-multimem"},
    {Sec::MultimemStAsync, "MultimemStAsync", "9.7.10.13",
     "data-movement-and-conversion-instructions-multimem-st-async"},
    {Sec::MultimemRedAsync, "MultimemRedAsync", "9.7.15.8",
     "parallel-synchronization-and-communication-instructions-multimem-red-async"},
    {Sec::MultimemCpAsyncBulk, "MultimemCpAsyncBulk", "9.7.10.28.4.4",
     "data-movement-and-conversion-instructions-multimem-cp-async-bulk"},
    {Sec::MultimemCpReduceAsyncBulk, "MultimemCpReduceAsyncBulk", "9.7.10.28.4.5",
     "data-movement-and-conversion-instructions-multimem-cp-reduce-async-bulk"},
    {Sec::IntegerArithmetic, "IntegerArithmetic", "9.7.1", "integer-arithmetic-instructions"},
    {Sec::LogicInstructions, "LogicInstructions", "9.7.8", "logic-and-shift-instructions"},
    // cited by the model's comments (model/*.cat, as {Key} or {Key#})
    {Sec::MemorySynchronization, "MemorySynchronization", "8.9.4", "memory-synchronization"},
    {Sec::CausalityOrder, "CausalityOrder", "8.9.5", "causality-order"},
    {Sec::DataRaces, "DataRaces", "8.7.1", "conflict-and-data-races"},
    {Sec::Axioms, "Axioms", "8.10", "axioms"},
    {Sec::CoherenceAxiom, "CoherenceAxiom", "8.10.1", "coherence-axiom"},
    {Sec::FenceScAxiom, "FenceScAxiom", "8.10.2", "fence-sc-axiom"},
    {Sec::AtomicityAxiom, "AtomicityAxiom", "8.10.3", "atomicity-axiom"},
    {Sec::ScPerLocAxiom, "ScPerLocAxiom", "8.10.5", "sc-per-loc-axiom"},
    {Sec::CausalityAxiom, "CausalityAxiom", "8.10.6", "causality-axiom"},
    {Sec::Tcgen05MemoryConsistencyModel, "Tcgen05MemoryConsistencyModel", "9.7.18.6",
     "tcgen05-memory-consistency-model"},
    {Sec::Tcgen05PipelinedImplicit, "Tcgen05PipelinedImplicit", "9.7.18.6.2.1",
     "tcgen05-memory-consistency-model-pipelined-instructions-implicit"},
};

constexpr bool inEnumOrder() {
    for (std::size_t i = 0; i < std::size(kRows); ++i)
        if (static_cast<std::size_t>(kRows[i].key) != i) return false;
    return true;
}
static_assert(inEnumOrder() && kRows[std::size(kRows) - 1].key == Sec::Tcgen05PipelinedImplicit,
              "one row per Sec enumerator, in enum order");

constexpr bool everyRowAnchored() {
    for (const SectionRow& r : kRows)
        if (r.number.empty() || r.anchor.empty()) return false;
    return true;
}
static_assert(everyRowAnchored(), "every row names its section number and HTML anchor");

const SectionRow* rowNamed(std::string_view name) {
    for (const SectionRow& r : kRows)
        if (r.name == name) return &r;
    return nullptr;
}

/** Release and acquire accesses synchronize through the patterns of 8.8. */
Section ordering(Sem sem) {
    if (sem == Sem::Release || sem == Sem::Acquire || sem == Sem::AcqRel)
        return section(Sec::ReleaseAcquirePatterns);
    return {};
}

struct Of {
    Section operator()(const Ld& x) const { return ordering(x.sem); }
    Section operator()(const St& x) const { return ordering(x.sem); }
    Section operator()(const Atom&) const { return section(Sec::Atom); }
    Section operator()(const Fence&) const { return section(Sec::Membar); }
    Section operator()(const Membar&) const { return section(Sec::Membar); }
    Section operator()(const ProxyFence&) const { return section(Sec::Membar); }
    Section operator()(const TensormapCopy&) const { return section(Sec::TensormapCpFenceproxy); }
    Section operator()(const RedAsync&) const { return section(Sec::RedAsync); }
    Section operator()(const Multimem& x) const {
        switch (x.kind) {
        case MultimemKind::StAsync:
            return section(Sec::MultimemStAsync);
        case MultimemKind::RedAsync:
            return section(Sec::MultimemRedAsync);
        case MultimemKind::Red:
            return section(Sec::Multimem);
        case MultimemKind::LdReduce:
        case MultimemKind::St:
            return ordering(x.sem);
        }
        return {};
    }
    Section operator()(const Matrix& x) const {
        return section(x.store ? Sec::Stmatrix : Sec::Ldmatrix);
    }
    Section operator()(const Barrier& x) const {
        return section(x.cluster ? Sec::BarrierCluster : Sec::BarBarrier);
    }
    Section operator()(const MbarrierArrive& x) const {
        return section(x.drop ? Sec::MbarrierArriveDrop : Sec::MbarrierArrive);
    }
    Section operator()(const MbarrierTx& x) const {
        return section(x.complete ? Sec::MbarrierCompleteTx : Sec::MbarrierExpectTxOperation);
    }
    Section operator()(const MbarrierWait&) const { return section(Sec::MbarrierTestWaitTryWait); }
    Section operator()(const MbarrierPendingCount&) const { return {}; } // reads a register only
    Section operator()(const ClcTryCancel&) const { return section(Sec::ClcTryCancel); }
    Section operator()(const MbarrierCheckLayout&) const {
        return section(Sec::MbarrierCheckLayout);
    }
    Section operator()(const BulkPrefetch&) const { return {}; } // a cache hint
    Section operator()(const CpAsyncArrive&) const { return section(Sec::CpAsyncMbarrierArrive); }
    Section operator()(const BulkCommit& x) const {
        return section(x.nonBulk ? Sec::CpAsyncCommitGroup : Sec::CpAsyncBulkCommitGroup);
    }
    Section operator()(const BulkWait& x) const {
        return section(x.nonBulk ? Sec::CpAsyncWaitGroup : Sec::CpAsyncBulkWaitGroup);
    }
    Section operator()(const Tcgen05Wait&) const { return section(Sec::Tcgen05Wait); }
    Section operator()(const Tcgen05Commit&) const { return section(Sec::Tcgen05Commit); }
    Section operator()(const Tcgen05Fence&) const { return section(Sec::Tcgen05Fence); }
    Section operator()(const WgmmaFence&) const { return section(Sec::WgmmaFence); }
    Section operator()(const WgmmaCommit&) const { return section(Sec::WgmmaCommitGroup); }
    Section operator()(const WgmmaWait&) const { return section(Sec::WgmmaWaitGroup); }
    // No section: they synchronise nothing (one overload each, so a new instruction is decided).
    Section operator()(const Arith&) const { return {}; }
    Section operator()(const TensormapReplace&) const { return {}; }
    Section operator()(const MbarrierInit&) const { return {}; }
    Section operator()(const BulkCopy&) const { return {}; }
    Section operator()(const CpAsync&) const { return {}; }
    Section operator()(const Tcgen05Alloc&) const { return {}; }
    Section operator()(const Tcgen05Relinquish&) const { return {}; }
    Section operator()(const Tcgen05Mma&) const { return {}; }
    Section operator()(const Tcgen05Cp&) const { return {}; }
    Section operator()(const Tcgen05Shift&) const { return {}; }
    Section operator()(const Tcgen05Ld&) const { return {}; }
    Section operator()(const Tcgen05St&) const { return {}; }
    Section operator()(const WgmmaMma&) const { return {}; }
    Section operator()(const Bra&) const { return {}; }
    Section operator()(const CompareBranch&) const { return {}; }
    Section operator()(const Setp&) const { return {}; }
    Section operator()(const Mov&) const { return {}; }
    Section operator()(const Elect&) const { return {}; }
    // Warp collectives: values across a warp's lanes, which are one litmus thread.
    Section operator()(const Vote&) const { return {}; }
    Section operator()(const Match&) const { return {}; }
    Section operator()(const Activemask&) const { return {}; }
    Section operator()(const Redux&) const { return {}; }
    Section operator()(const BarWarpSync&) const { return {}; }
    Section operator()(const Nondet&) const { return {}; }    // ptxmc's: no PTX section
    Section operator()(const Nanosleep&) const { return {}; } // a delay orders nothing
    Section operator()(const Setmaxnreg&) const { return section(Sec::Setmaxnreg); }
    Section operator()(const Griddepcontrol&) const { return section(Sec::Griddepcontrol); }
    Section operator()(const ClcQueryCancel&) const { return section(Sec::ClcQueryCancel); }
    Section operator()(const Exit&) const { return {}; }
};

} // namespace

const Section& section(Sec key) {
    static const auto sections = [] {
        std::array<Section, std::size(kRows)> all;
        for (std::size_t i = 0; i < std::size(kRows); ++i)
            all[i] = {std::string(kRows[i].number), std::string(kRows[i].anchor)};
        return all;
    }();
    return sections.at(static_cast<std::size_t>(key));
}

std::string_view sectionsIsaVersion() {
    return kIsaVersion;
}

CitationError::CitationError(const std::string& message, std::size_t at)
    : std::invalid_argument(message), offset(at) {}

std::string expandCitations(std::string_view text) {
    std::string out;
    std::size_t at = 0;
    for (std::size_t open = text.find('{'); open != std::string_view::npos;
         open = text.find('{', open + 1)) {
        if (open + 1 >= text.size() || text[open + 1] < 'A' || text[open + 1] > 'Z') continue;
        std::size_t close = text.find('}', open);
        if (close == std::string_view::npos)
            throw CitationError("section key '" + std::string(text.substr(open, 40)) +
                                    "' has no closing '}'",
                                open);
        std::string_view name = text.substr(open + 1, close - open - 1);
        bool withAnchor = name.back() == '#';
        if (withAnchor) name.remove_suffix(1);
        const SectionRow* r = rowNamed(name);
        if (!r) throw CitationError("no PTX section '" + std::string(name) + "'", open);
        out.append(text.substr(at, open - at)).append(r->number);
        if (withAnchor) out.append(" #").append(r->anchor);
        at = close + 1;
        open = close;
    }
    return out.append(text.substr(at));
}

Section sectionOf(const Insn& insn) {
    return std::visit(Of{}, insn.op);
}

std::string citation(const Section& s) {
    return s.number.empty() ? std::string() : "PTX ISA " + s.number + " #" + s.anchor;
}

std::string cite(Sec key) {
    return "PTX ISA " + section(key).number;
}

} // namespace ptxmc::ptx
