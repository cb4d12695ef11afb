// The launch's shape from the options and the entry's directives; the special registers' values.
#include "kernel/LaunchShape.hpp"

#include "kernel/Arith.hpp"
#include "support/SourceLoc.hpp"

#include <fmt/format.h>
#include <string_view>
#include <utility>

namespace ptxmc::kernel {

LaunchShape launchShape(const Function& entry, const Launch& launch) {
    LaunchShape s;
    if (launch.block)
        s.block = *launch.block;
    else if (entry.reqntid)
        s.block = *entry.reqntid;
    else if (entry.maxntid)
        s.block = *entry.maxntid;
    else
        throw InputError(entry.loc, "the entry declares no block size (.reqntid/.maxntid): give "
                                    "--block X[,Y,Z]");
    if (launch.cluster)
        s.cluster = *launch.cluster;
    else if (entry.reqnctapercluster)
        s.cluster = *entry.reqnctapercluster;
    s.grid = launch.grid ? *launch.grid : s.cluster;
    s.dynamicShared = launch.dynamicShared;
    if (s.threads() <= 0 || s.threads() > 1024)
        throw InputError(SourceLoc{"--block", 1, 1},
                         fmt::format("a block of {} threads: PTX allows 1 to 1024", s.threads()));
    if (s.ctas() <= 0 || s.ctas() > 16)
        throw InputError(SourceLoc{"--cluster", 1, 1},
                         fmt::format("a cluster of {} CTAs: ptxmc checks 1 to 16", s.ctas()));
    for (std::size_t k = 0; k < 3; ++k)
        if (s.grid[k] % s.cluster[k] != 0)
            throw InputError(SourceLoc{"--grid", 1, 1},
                             "the grid is not a whole number of clusters");
    return s;
}

std::array<int, 3> boxIndex(int linear, const std::array<int, 3>& dims) {
    return {linear % dims[0], (linear / dims[0]) % dims[1], linear / (dims[0] * dims[1])};
}

namespace {

/** The registers with .x/.y/.z components. */
enum class SpecialBox {
    Tid,
    Ntid,
    Ctaid,
    Nctaid,
    ClusterCtaid,
    ClusterNctaid,
    Clusterid,
    Nclusterid
};
constexpr std::array<std::pair<std::string_view, SpecialBox>, 8> kSpecialBoxes = {{
    {"%tid", SpecialBox::Tid},
    {"%ntid", SpecialBox::Ntid},
    {"%ctaid", SpecialBox::Ctaid},
    {"%nctaid", SpecialBox::Nctaid},
    {"%cluster_ctaid", SpecialBox::ClusterCtaid},
    {"%cluster_nctaid", SpecialBox::ClusterNctaid},
    {"%clusterid", SpecialBox::Clusterid},
    {"%nclusterid", SpecialBox::Nclusterid},
}};

/**
 * Whether `s` works across the CTAs of a cluster: a cluster special register, a peer's shared
 * memory, a cluster barrier, a multicast. The `shared::cluster` of a bulk copy, a fence or a
 * tcgen05.commit is not one: it is the only form a one-CTA kernel has of them.
 */
bool usesCluster(const Statement& s) {
    using ptx::ModuleOp;
    const std::vector<std::string>& parts = s.insn.parts;
    const bool ownWindow = s.op == ModuleOp::CpBulk || s.op == ModuleOp::CpBulkTensor ||
                           s.op == ModuleOp::CpPrefetch || s.op == ModuleOp::Fence ||
                           s.op == ModuleOp::Tcgen05Commit;
    if ((!ownWindow && ptx::hasQualifier(parts, "shared::cluster")) ||
        (s.op == ModuleOp::Barrier && ptx::hasQualifier(parts, "cluster")) ||
        ptx::hasQualifier(parts, "multicast") || s.op == ModuleOp::Mapa ||
        s.op == ModuleOp::Getctarank)
        return true;
    for (const litmus::Operand& o : s.insn.operands)
        if (o.name.rfind("%cluster", 0) == 0 || o.name.rfind("%ncluster", 0) == 0 ||
            o.name == "%is_explicit_cluster")
            return true;
    return false;
}

/** The one-value registers the launch decides. */
enum class SpecialScalar {
    Laneid,
    Warpid,
    Nwarpid,
    ClusterCtarank,
    ClusterNctarank,
    IsExplicitCluster,
    LanemaskEq,
    LanemaskLt,
    LanemaskLe,
    LanemaskGt,
    LanemaskGe,
    DynamicSmemSize
};
constexpr std::array<std::pair<std::string_view, SpecialScalar>, 12> kSpecialScalars = {{
    {"%laneid", SpecialScalar::Laneid},
    {"%warpid", SpecialScalar::Warpid},
    {"%nwarpid", SpecialScalar::Nwarpid},
    {"%cluster_ctarank", SpecialScalar::ClusterCtarank},
    {"%cluster_nctarank", SpecialScalar::ClusterNctarank},
    {"%is_explicit_cluster", SpecialScalar::IsExplicitCluster},
    {"%lanemask_eq", SpecialScalar::LanemaskEq},
    {"%lanemask_lt", SpecialScalar::LanemaskLt},
    {"%lanemask_le", SpecialScalar::LanemaskLe},
    {"%lanemask_gt", SpecialScalar::LanemaskGt},
    {"%lanemask_ge", SpecialScalar::LanemaskGe},
    {"%dynamic_smem_size", SpecialScalar::DynamicSmemSize},
}};

/** Registers the launch does not decide (the SM, clocks): their value is unknown. */
constexpr std::array<std::string_view, 6> kUndecidedSpecials = {
    "%smid", "%nsmid", "%clock", "%globaltimer", "%gridid", "%total_smem_size"};

std::array<int, 3> boxValue(SpecialBox b, const ThreadPlace& t, const LaunchShape& s) {
    switch (b) {
    case SpecialBox::Tid:
        return boxIndex(t.tid, s.block);
    case SpecialBox::Ntid:
        return s.block;
    case SpecialBox::Ctaid:
    case SpecialBox::ClusterCtaid:
        return boxIndex(t.cta, s.cluster);
    case SpecialBox::Nctaid:
        return s.grid;
    case SpecialBox::ClusterNctaid:
        return s.cluster;
    case SpecialBox::Clusterid:
        return {0, 0, 0};
    case SpecialBox::Nclusterid:
        return {s.grid[0] / s.cluster[0], s.grid[1] / s.cluster[1], s.grid[2] / s.cluster[2]};
    }
    return {0, 0, 0};
}

std::uint64_t scalarValue(SpecialScalar r, const ThreadPlace& t, const LaunchShape& s) {
    const auto u = [](int v) { return static_cast<std::uint64_t>(v); };
    switch (r) {
    case SpecialScalar::Laneid:
        return u(t.lane);
    case SpecialScalar::Warpid:
        return u(t.warp);
    case SpecialScalar::Nwarpid:
        return u((s.threads() + 31) / 32);
    case SpecialScalar::ClusterCtarank:
        return u(t.cta);
    case SpecialScalar::ClusterNctarank:
        return u(s.ctas());
    case SpecialScalar::IsExplicitCluster:
        return 1;
    case SpecialScalar::LanemaskEq:
        return 1ULL << t.lane;
    case SpecialScalar::LanemaskLt:
        return (1ULL << t.lane) - 1;
    case SpecialScalar::LanemaskLe:
        return (2ULL << t.lane) - 1;
    case SpecialScalar::LanemaskGt:
        return mask(~((2ULL << t.lane) - 1), 32);
    case SpecialScalar::LanemaskGe:
        return mask(~((1ULL << t.lane) - 1), 32);
    case SpecialScalar::DynamicSmemSize:
        return s.dynamicShared;
    }
    return 0;
}

} // namespace

std::optional<Val> specialRegister(const std::string& name, const ThreadPlace& t,
                                   const LaunchShape& shape) {
    for (const auto& [base, box] : kSpecialBoxes)
        for (std::size_t k = 0; k < 3; ++k)
            if (name.size() == base.size() + 2 && name.compare(0, base.size(), base) == 0 &&
                name[base.size()] == '.' && name.back() == "xyz"[k])
                return Val::of(static_cast<std::uint64_t>(boxValue(box, t, shape)[k]));
    for (const auto& [spelling, scalar] : kSpecialScalars)
        if (name == spelling) return Val::of(scalarValue(scalar, t, shape));
    if (name.rfind('%', 0) == 0 && name.find('.') == std::string::npos)
        for (std::string_view prefix : kUndecidedSpecials)
            if (name.compare(0, prefix.size(), prefix) == 0) return Val{};
    return std::nullopt;
}

std::optional<SourceLoc> unsizedClusterUse(const Function& entry, const Launch& launch) {
    if (launch.cluster || entry.reqnctapercluster) return std::nullopt;
    for (const Statement& s : entry.body)
        if (s.kind == Statement::Kind::Instruction && usesCluster(s)) return s.insn.loc;
    return std::nullopt;
}

} // namespace ptxmc::kernel
