// The kernel front end's opcode table (ModuleOps.def): what each instruction of a module is.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ptxmc::ptx {

/** What `ptxmc kernel`'s evaluator does with an instruction (ModuleOps.def's last column). */
enum class ModuleRole {
    Branch,
    Exit,
    Trap,
    Setp,
    Collective,
    Arith,
    ParamLoad,
    Load,
    Store,
    Atomic,
    Event,
    Wait,
    ClcQuery,
    Ignore,
    Data,
    Unsupported
};

/** One alternative per row of ModuleOps.def, then Other: an opcode no row names. */
enum class ModuleOp {
#define PTXMC_MODULE_OP(Name, lead, qualifier, Role) Name,
#include "ptx/ModuleOps.def"
    Other
};

struct ModuleOpRow {
    ModuleOp op = ModuleOp::Other;
    std::string_view lead;      ///< "cp.async.bulk": the opcode's leading parts
    std::string_view qualifier; ///< "param": one it must carry after them ("" none)
    ModuleRole role = ModuleRole::Data;
};

/**
 * The first row whose leading parts begin `parts` and whose qualifier appears in the rest; an
 * opcode no row names is {Other, "", "", Data}.
 */
ModuleOpRow moduleOp(const std::vector<std::string>& parts);

/** The row of `op` ({Other, "", Data} for Other). */
ModuleOpRow moduleOpRow(ModuleOp op);

/**
 * Whether a dotted part of `parts` after the first is the qualifier `q`, whole or with more
 * `::` levels after it ("multicast::cluster" is in `.multicast::cluster::32b`): a qualifier
 * test on the parsed parts, never a search of the opcode's text.
 */
bool hasQualifier(const std::vector<std::string>& parts, std::string_view q);

// The rows of one opcode: its forms that the table tells apart.
constexpr bool isLdOp(ModuleOp op) {
    return op == ModuleOp::LdParam || op == ModuleOp::LduParam || op == ModuleOp::Ld ||
           op == ModuleOp::Ldu;
}
constexpr bool isStOp(ModuleOp op) {
    return op == ModuleOp::StParam || op == ModuleOp::StAsync || op == ModuleOp::St;
}
constexpr bool isAtomOp(ModuleOp op) {
    return op == ModuleOp::AtomAsync || op == ModuleOp::Atom;
}
constexpr bool isRedOp(ModuleOp op) {
    return op == ModuleOp::RedAsync || op == ModuleOp::Red;
}
constexpr bool isMbarrierOp(ModuleOp op) {
    return op == ModuleOp::MbarrierTryWait || op == ModuleOp::MbarrierTestWait ||
           op == ModuleOp::MbarrierArrive || op == ModuleOp::MbarrierArriveDrop ||
           op == ModuleOp::MbarrierInit || op == ModuleOp::Mbarrier;
}
constexpr bool isCpOp(ModuleOp op) {
    return op == ModuleOp::CpPrefetch || op == ModuleOp::CpReduceBulkTensor ||
           op == ModuleOp::CpReduce || op == ModuleOp::CpBulkTensor || op == ModuleOp::CpBulk ||
           op == ModuleOp::CpAsyncMbarrier || op == ModuleOp::CpAsync || op == ModuleOp::Cp;
}
constexpr bool isWgmmaOp(ModuleOp op) {
    return op == ModuleOp::WgmmaMmaAsync || op == ModuleOp::Wgmma;
}
constexpr bool isTcgen05Op(ModuleOp op) {
    return op == ModuleOp::Tcgen05Alloc || op == ModuleOp::Tcgen05Mma ||
           op == ModuleOp::Tcgen05Commit || op == ModuleOp::Tcgen05Ld ||
           op == ModuleOp::Tcgen05St || op == ModuleOp::Tcgen05Cp || op == ModuleOp::Tcgen05Shift ||
           op == ModuleOp::Tcgen05;
}
/** bar and barrier, the CTA's named barriers (bar.warp.sync is a warp's, and ignored). */
constexpr bool isBarOp(ModuleOp op) {
    return op == ModuleOp::BarWarp || op == ModuleOp::Bar || op == ModuleOp::Barrier;
}

} // namespace ptxmc::ptx
