// Qualifier tables of the PTX subset ptxmc reads: one row per qualifier spelling.
#pragma once

#include "ptx/Insn.hpp"
#include "ptx/ModuleOps.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace ptxmc::ptx {

template <class E> struct Row {
    E value;
    std::string_view name;
};

/** A tcgen05.ld/st shape and the registers each repeat moves per thread (PTX ISA
 * #tcgen05-instructions-tcgen05-ld). */
struct LdStShapeRow {
    LdStShape shape;
    std::string_view name;
    int registersPerRepeat;
    /// Tensor-memory columns each repeat covers: the bits it moves of each lane, 32 a column
    int columnsPerRepeat;
    /// Takes the immediate immHalfSplitoff after [taddr] and accesses there a second time
    bool halfSplit = false;
};

/** A tcgen05.cp shape and the warp multicast it needs (PTX ISA {Tcgen05Cp}). */
struct CpShapeRow {
    CpShape shape;
    std::string_view name;
    CpWarps needs; ///< None: no multicast needed; X2_02_13 stands for either .warpx2
};

/** A wgmma.mma_async .atype/.btype (PTX ISA {WgmmaMmaAsync}). */
struct WgmmaTypeRow {
    std::string_view name;
    int k;                      ///< the K of its shapes
    std::string_view dtypes;    ///< accumulator types allowed, space-separated
    std::size_t immediates = 0; ///< immediates after scale-d, A in shared memory
};
extern const std::array<WgmmaTypeRow, 8> kWgmmaTypes;
/** The row of an .atype/.btype spelling, or null. */
const WgmmaTypeRow* wgmmaType(std::string_view name);

extern const std::array<Row<Scope>, 4> kScopes;             ///< .cta .cluster .gpu .sys
extern const std::array<Row<Sem>, 6> kMemorySems;           ///< ld/st/atom/red semantics
extern const std::array<Row<Sem>, 4> kFenceSems;            ///< fence.sc/acq_rel/acquire/release
extern const std::array<Row<StateSpace>, 2> kSyncRestricts; ///< fence's .sync_restrict::*
extern const std::array<Row<StateSpace>, 4> kSpaces;        ///< state spaces
extern const std::array<Row<AtomOp>, 13> kAtomOps;          ///< atom/red operations
extern const std::array<Row<HalfType>, 4> kHalfTypes;       ///< .f16 .bf16 .f16x2 .bf16x2
extern const std::array<Row<Fp8Type>, 6> kFp8Types;         ///< .e5m2 ... .e4m3x4
extern const std::array<Row<ReportMechanism>, 6> kReportMechanisms; ///< a copy's .report_mechanism
extern const std::array<Row<ProxyKind>, 9> kProxies;                ///< fence.proxy kinds
extern const std::array<Row<CmpOp>, 10> kCmpOps;                    ///< setp comparisons
extern const std::array<Row<CmpOp>, 6> kBranchCmps;                 ///< Dat3M's beq ... bge
extern const std::array<Row<VoteMode>, 4> kVoteModes;           ///< vote's .all .any .uni .ballot
extern const std::array<Row<ReduxOp>, 6> kReduxOps;             ///< redux.sync's operations
extern const std::array<Row<BarrierRedOp>, 3> kBarrierRedOps;   ///< bar.red's .popc .and .or
extern const std::array<LdStShapeRow, 5> kLdStShapes;           ///< tcgen05.ld/st shapes
extern const std::array<int, 8> kLdStRepeats;                   ///< the .xN of tcgen05.ld/st
extern const std::array<Row<Pack>, 2> kPacks;                   ///< .pack::16b / .unpack::16b
extern const std::array<CpShapeRow, 5> kCpShapes;               ///< tcgen05.cp shapes
extern const std::array<Row<CpWarps>, 3> kCpWarps;              ///< tcgen05.cp warp multicast
extern const std::array<std::string_view, 3> kCpDecompress;     ///< tcgen05.cp source formats
extern const std::array<std::string_view, 8> kMmaKinds;         ///< tcgen05.mma .kind::
extern const std::array<Row<CollectorOp>, 4> kCollectorOps;     ///< tcgen05.mma .collector::BUF::op
extern const std::array<std::string_view, 6> kCollectorBuffers; ///< a, b, b0 ... b3
extern const std::array<Row<MatrixShape>, 4> kMatrixShapes;     ///< ldmatrix/stmatrix .shape
extern const std::array<Row<MatrixType>, 5> kMatrixTypes;       ///< ldmatrix/stmatrix types
/// tcgen05.mma's forms with tensor-memory operands besides A and D: .sp's metadata, .ws's
/// buffers, .block_scale's scale matrices, .decompress::lut::b's table ({Tcgen05Mma})
extern const std::array<std::string_view, 4> kMmaExtraTmemForms;
/// A cache, eviction or non-coherence hint of a module's accesses: no effect the model reads.
struct AccessHint {
    std::string_view spelling;
    bool cacheOperator = false; ///< ld/st's .ca, .cg, ...: cp.async's own qualifier there
};
extern const std::array<AccessHint, 20> kAccessHints;
/** Whether `q` is a hint of `op` that ptxmc kernel drops (cp.async keeps its .ca/.cg). */
bool isAccessHint(ModuleOp op, std::string_view q);

/** The spelling of `value` in `table` ("" when absent). */
template <class E, std::size_t N>
std::string_view nameOf(const std::array<Row<E>, N>& table, E value) {
    for (const auto& r : table)
        if (r.value == value) return r.name;
    return {};
}

/** The value spelled `name` in `table`. */
template <class E, std::size_t N>
std::optional<E> valueOf(const std::array<Row<E>, N>& table, std::string_view name) {
    for (const auto& r : table)
        if (r.name == name) return r.value;
    return std::nullopt;
}

const LdStShapeRow& ldStShape(LdStShape s);
/** The tcgen05.ld/st shape spelled `name` (".16x64b" without its dot), if one is. */
const LdStShapeRow* ldStShapeNamed(std::string_view name);
/** The repeat count a tcgen05.ld/st qualifier spells (.x1 ... .x128), if it is one. */
std::optional<int> ldStRepeatNamed(std::string_view name);
const CpShapeRow& cpShape(CpShape s);
/** The spellings of a shape table as a message lists them: ".a, .b or .c". */
template <class Rows> std::string shapeList(const Rows& rows) {
    std::string out;
    for (std::size_t i = 0; i < rows.size(); ++i)
        out += std::string(i == 0                 ? ""
                           : i + 1 == rows.size() ? " or "
                                                  : ", ") +
               "." + std::string(rows[i].name);
    return out;
}
std::string_view semName(Sem s);
std::string_view scopeName(Scope s);

} // namespace ptxmc::ptx
