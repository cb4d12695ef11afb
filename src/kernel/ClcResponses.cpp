// Records try_cancel's response writes and decodes query_cancel, over the evaluation's passes.
#include "kernel/ClcResponses.hpp"

#include "kernel/Clc.hpp"

#include <fmt/format.h>

namespace ptxmc::kernel {

void ClcResponses::beginPass() {
    before_ = stored_;
    seen_.clear();
    requests_ = 0;
}

bool ClcResponses::endPass() {
    stored_ = seen_;
    return stored_ != before_;
}

std::optional<Val> ClcResponses::read(Lane& L, std::uint64_t slot) {
    const std::vector<std::uint64_t>* written = nullptr;
    std::size_t n = L.clcReads[slot];
    for (const Slots* pass : {&seen_, &stored_})
        if (auto it = pass->find(slot); it != pass->end() && n < it->second.size()) {
            written = &it->second;
            break;
        }
    if (written == nullptr) return std::nullopt;
    ++L.clcReads[slot];
    return Val::of((*written)[n]);
}

std::string ClcResponses::request(Lane& L, const Step& st, const SourceLoc& loc, int ctas,
                                  int tiles) {
    if (st.operands.size() < 2 || !st.operands[0].value.known || !st.operands[1].value.known)
        throw InputError(loc, "the response or mbarrier address of this try_cancel is not known "
                              "from the launch");
    auto slot = Layout::sharedAddress(st.operands[0].value.v);
    auto mbar = Layout::sharedAddress(st.operands[1].value.v);
    if (!slot || !mbar)
        throw InputError(loc, "try_cancel's operands must be shared-memory addresses");
    std::uint64_t k = requests_++;
    if (k >= static_cast<std::uint64_t>(tiles))
        throw InputError(loc, fmt::format("try_cancel request {} follows a failed one: \"If the "
                                          "executing CTA has already observed the completion "
                                          "of a clusterlaunchcontrol.try_cancel instruction as "
                                          "failed, then the behavior of issuing a subsequent "
                                          "... is undefined\" (9.7.15.18; --tiles {} makes "
                                          "request {} fail)",
                                          k, tiles, tiles - 1));
    bool multicast = ptx::hasQualifier(st.parts, "multicast::cluster::all");
    for (int cta = 0; cta < ctas; ++cta) {
        if (!multicast && cta != L.cta) continue;
        std::uint64_t base = LaneValues::sharedBase(cta);
        std::uint64_t dst = base | (*slot & Layout::kOffsetMask);
        seen_[dst].push_back(clc::response(k));
        Step copy = st;
        copy.opcode = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes";
        copy.op = ptx::ModuleOp::CpBulk;
        copy.parts = {
            "cp", "async", "bulk", "shared::cluster", "global", "mbarrier::complete_tx::bytes"};
        copy.value = ptx::valueForm(copy.op, copy.parts);
        RawOperand d = st.operands[0], src = st.operands[0], mb = st.operands[1], bytes;
        d.value = Val::of(dst);
        d.space = "shared::cluster";
        src.value = Val::of(Layout::kClcResponses);
        src.reg = "clc_responses";
        src.space = "global";
        bytes.kind = RawOperand::Kind::Imm;
        bytes.value = Val::of(16);
        bytes.loc = loc;
        mb.value = Val::of(base | (*mbar & Layout::kOffsetMask));
        mb.space = "shared::cluster";
        copy.operands = {d, src, bytes, mb};
        L.steps.push_back(std::move(copy));
    }
    return fmt::format("clusterlaunchcontrol.try_cancel: an asynchronous 16-byte write of its "
                       "response with complete-tx on its mbarrier; {}",
                       tiles == 1 ? std::string("with --tiles 1 the first request fails")
                                  : fmt::format("with --tiles {} the first {} request(s) cancel "
                                                "the next cluster(s) of the grid, then one fails",
                                                tiles, tiles - 1));
}

void ClcResponses::query(Lane& L, const litmus::Instruction& in, const LaneValues& values,
                         int tiles, const std::array<int, 3>& grid,
                         const std::array<int, 3>& cluster, bool lastPass) {
    if (in.operands.size() < 2)
        throw InputError(in.loc, "query_cancel needs a destination and a response");
    Val resp = values.value(L, in.operands[1]);
    auto k = resp.known ? clc::requestOf(resp.v) : std::nullopt;
    if (!k) {
        if (!lastPass) return LaneValues::unknownDests(L, in, resp.field);
        throw InputError(in.operands[1].loc, "'" + in.operands[1].name +
                                                 "' is not a response a try_cancel of this "
                                                 "cluster wrote: load it from the try_cancel's "
                                                 "address after waiting on its mbarrier");
    }
    bool ok = clc::cancelled(*k, tiles);
    if (ptx::hasQualifier(in.parts, "is_canceled"))
        return LaneValues::set(L, in.operands[0], Val::of(ok ? 1 : 0));
    if (!ok)
        throw InputError(in.loc, "get_first_ctaid of a failed request: \"If the request fails "
                                 "the behavior of clusterlaunchcontrol.query_cancel."
                                 "get_first_ctaid is undefined\" (9.7.15.19)");
    clc::FirstCta first = clc::firstCta(*k, grid, cluster);
    if (!first.error.empty()) throw InputError(in.loc, first.error);
    const litmus::Operand& d = in.operands[0];
    if (d.kind == litmus::Operand::Kind::Vector) {
        for (std::size_t i = 0; i < d.elements.size(); ++i)
            if (d.elements[i].kind == litmus::Operand::Kind::Name)
                L.regs[d.elements[i].name] = i < 3 ? Val::of(first.ctaid[i]) : Val{};
        return;
    }
    for (std::size_t i = 0; i < 3; ++i)
        if (ptx::hasQualifier(in.parts, std::string("get_first_ctaid::") + "xyz"[i]))
            return LaneValues::set(L, d, Val::of(first.ctaid[i]));
    throw InputError(in.loc, "unknown form of clusterlaunchcontrol.query_cancel");
}

} // namespace ptxmc::kernel
