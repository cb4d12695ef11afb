// The PTX ISA sections the code cites, by key; the numbers and anchors live in Sections.cpp only.
#pragma once

#include "ptx/Insn.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ptxmc::ptx {

/** A section of the PTX ISA text: number and anchor, e.g. {"<number>", "parallel-...-membar"}. */
struct Section {
    std::string number;
    std::string anchor;
};

/** Every section cited, one row each in Sections.cpp (the ISA version its numbers follow). */
enum class Sec {
    StateSpaces,
    SharedStateSpace,
    TensorMap,
    MemoryConsistencyModel,
    OperationTypes,
    Scope,
    Proxies,
    MorallyStrong,
    ReleaseAcquirePatterns,
    ProgramOrder,
    ProgramOrderAsync,
    ObservationOrder,
    FenceScOrder,
    CoherenceOrder,
    Dependencies,
    PredicatedExecution,
    Setp,
    ControlFlow,
    Bra,
    Exit,
    Ret,
    Mov,
    StAsync,
    AsyncCopies,
    CpAsyncCompletion,
    CpAsyncGroups,
    CpAsyncMbarrierMechanism,
    AsyncCopyReportMechanisms,
    AsyncProxy,
    NonBulkCopies,
    CpAsync,
    CpAsyncCommitGroup,
    CpAsyncWaitGroup,
    BulkCopies,
    CpAsyncBulk,
    CpReduceAsyncBulk,
    CpAsyncBulkPrefetch,
    CpAsyncBulkPrefetchTensor,
    TensorBaseAddressOverride,
    TensorCopies,
    CpAsyncBulkTensor,
    CpReduceAsyncBulkTensor,
    BulkGroups,
    CpAsyncBulkCommitGroup,
    CpAsyncBulkWaitGroup,
    TensormapReplace,
    BarBarrier,
    BarrierCluster,
    Membar,
    Atom,
    Red,
    Elect,
    Mbarrier,
    MbarrierOrder,
    MbarrierPhase,
    MbarrierConditionalPhase,
    MbarrierTrackingAsync,
    MbarrierExpectTxOperation,
    MbarrierCompleteTxOperation,
    MbarrierTracking,
    MbarrierPhaseCompletion,
    MbarrierArriveOn,
    MbarrierReportOn,
    MbarrierInit,
    MbarrierInval,
    MbarrierExpectTx,
    MbarrierCompleteTx,
    MbarrierArrive,
    MbarrierArriveDrop,
    CpAsyncMbarrierArrive,
    MbarrierTestWaitTryWait,
    MbarrierPendingCount,
    MbarrierCheckLayout,
    TensormapCpFenceproxy,
    Tcgen05,
    TensorMemory,
    Tcgen05IssueGranularity,
    Tcgen05AsyncOperations,
    Tcgen05Pipelined,
    Tcgen05MbarrierCompletion,
    Tcgen05WaitCompletion,
    Tcgen05InterThreadSync,
    Tcgen05NonPipelinedSameThread,
    Tcgen05PipelinedDiffThread,
    Tcgen05NonPipelinedDiffThread,
    Tcgen05RegisterDependency,
    Tcgen05SmemAccess,
    Tcgen05Alloc,
    Tcgen05AccessRestrictions,
    Tcgen05Ld,
    Tcgen05St,
    Tcgen05Wait,
    Tcgen05Cp,
    Tcgen05Shift,
    Tcgen05Mma,
    Tcgen05MmaOperations,
    Tcgen05BlockScaling,
    Tcgen05SparseMatrices,
    Tcgen05MmaSp,
    Tcgen05MmaWs,
    Tcgen05MmaWsSp,
    Tcgen05Fence,
    Tcgen05Commit,
    Nanosleep,
    // added for the 9.4 text
    Wgmma,
    WgmmaAsyncProxy,
    WgmmaMmaAsync,
    WgmmaMmaAsyncSp,
    WgmmaFence,
    WgmmaCommitGroup,
    WgmmaWaitGroup,
    RedAsync,
    Setmaxnreg,
    Griddepcontrol,
    Ldmatrix,
    Stmatrix,
    RedRead,
    BarWarpSync,
    Vote,
    VoteSync,
    MatchSync,
    Activemask,
    ReduxSync,
    FloatMin,
    FloatMax,
    ClcTryCancel,
    ClcQueryCancel,
    MultimemAddresses,
    Multimem,
    MultimemStAsync,
    MultimemRedAsync,
    MultimemCpAsyncBulk,
    MultimemCpReduceAsyncBulk,
    IntegerArithmetic,
    LogicInstructions,
    // cited by the model's comments (model/*.cat)
    MemorySynchronization,
    CausalityOrder,
    DataRaces,
    Axioms,
    CoherenceAxiom,
    FenceScAxiom,
    AtomicityAxiom,
    ScPerLocAxiom,
    CausalityAxiom,
    Tcgen05MemoryConsistencyModel,
    Tcgen05PipelinedImplicit,
};

/** The section `key` names: its number (Sections.cpp's ISA version) and anchor. */
const Section& section(Sec key);

/** The PTX ISA version whose numbering the table follows (anchors are stable across versions). */
std::string_view sectionsIsaVersion();

/** An unknown or unclosed section key: `offset` is where its `{` stands in the text. */
struct CitationError : std::invalid_argument {
    CitationError(const std::string& message, std::size_t offset);
    std::size_t offset;
};

/**
 * Replaces each `{Key}` in `text` by the number of section Key (a Sec enumerator's name) and
 * each `{Key#}` by "number #anchor". A key starts with a capital letter, so other braces (`{}`,
 * `{x}`) are text; throws CitationError for an unknown or unclosed key.
 */
std::string expandCitations(std::string_view text);

/**
 * The section defining a synchronising instruction (fences, barriers, mbarrier operations,
 * commits and waits, release and acquire accesses); empty for the others.
 */
Section sectionOf(const Insn& insn);

/** "PTX ISA <number> #<anchor>", or "" for an empty section. */
std::string citation(const Section& s);

/** "PTX ISA <number>": the number only, as messages cite it. */
std::string cite(Sec key);

} // namespace ptxmc::ptx
