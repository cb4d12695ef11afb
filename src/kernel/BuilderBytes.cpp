// The bytes each tensor copy moves: its buffer's, or a share of what its expect_tx announces.
#include "kernel/Builder.hpp"
#include "kernel/StepForms.hpp"
#include "ptx/Print.hpp"
#include "ptx/Tables.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

namespace ptxmc::kernel {

using ptx::ModuleOp;
using OperandKind = RawOperand::Kind;

std::int64_t Builder::tileBytes(const std::string& tile) {
    if (tileBytes_.empty()) shareBytes();
    auto it = tileBytes_.find(tile);
    return it == tileBytes_.end() ? 16 : it->second;
}

std::optional<std::int64_t> Builder::regionBytes(const std::string& name) const {
    for (const Region& r : regions_)
        if (r.name == name) return static_cast<std::int64_t>(r.end - r.start);
    return std::nullopt;
}

bool Builder::completesTensorCopy(const Item& it) {
    if (it.op != ModuleOp::CpBulkTensor || it.insn.operands.size() < 3) return false;
    const auto copy = bulkCopyOf(it.insn);
    return copy && copy->dst != ptx::StateSpace::Global && copy->viaMbarrier;
}

std::vector<int> Builder::copyDestinations(const litmus::Instruction& in, int cta) const {
    const int own = in.operands[2].cta.value_or(cta);
    const auto copy = bulkCopyOf(in);
    if (!copy || !copy->multicast) return {own};
    // the mask is the first integer after [mbar] (an im2col copy's offsets are a vector)
    const litmus::Operand* mask = nullptr;
    for (std::size_t i = 3; i < in.operands.size() && !mask; ++i)
        if (in.operands[i].kind == litmus::Operand::Kind::Integer) mask = &in.operands[i];
    if (!mask || mask->value <= 0) return {own}; // the check rejects it (multicastTargets)
    // .cta_group::2: "for each destination CTA specified in the ctaMask, the mbarrier signal is
    // sent either to the destination CTA or its peer-CTA based on the %cluster_ctarank parity of
    // the shared memory where the mbarrier object mbar resides" ({CpAsyncBulkTensor})
    const bool pairs = copy->ctaGroup == 2;
    std::vector<int> out;
    for (int rank : ranksOfMask(mask->value))
        out.push_back(pairs ? (rank & ~1) | (own & 1) : rank);
    // the issuing CTA's barrier first: its share is the copy's size (shareBytes)
    std::stable_partition(out.begin(), out.end(), [&](int c) { return c == own; });
    return out.empty() ? std::vector<int>{own} : out;
}

std::optional<std::pair<const litmus::Operand*, std::int64_t>> Builder::expectTxOf(const Item& it) {
    const auto& in = it.insn;
    if (!ptx::hasQualifier(in.parts, "expect_tx") || in.operands.size() < 2) return std::nullopt;
    const litmus::Operand& bar = in.operands[in.operands.size() - 2];
    if (bar.kind != litmus::Operand::Kind::Memory) return std::nullopt;
    return std::pair{&bar, in.operands.back().value * it.repeat};
}

std::string Builder::barrierKey(const litmus::Operand& o, int cta) {
    return o.name + "@" + std::to_string(o.cta.value_or(cta));
}

std::set<std::string> Builder::copiesBeforeExpect(const WarpCode& w) const {
    std::set<std::string> seen, out;
    for (const Item& it : w.items) {
        const auto& in = it.insn;
        if (const auto expect = expectTxOf(it)) seen.insert(barrierKey(*expect->first, w.cta));
        if (!completesTensorCopy(it)) continue;
        const std::vector<int> dests = copyDestinations(in, w.cta);
        const std::string bar = in.operands[2].name + "@" + std::to_string(dests.front());
        if (dests.size() == 1 && seen.insert(bar).second) out.insert(bar);
    }
    return out;
}

void Builder::shareBytes() {
    std::map<std::string, std::int64_t> announced, copies;
    std::map<std::string, std::string> barOf;            ///< tile -> its barrier (name@cta)
    std::map<std::string, std::int64_t> phaseOf;         ///< tile -> its share of its phase
    std::set<std::string> shared;                        ///< barriers that peers' copies complete
    std::map<std::string, std::int64_t> intoRegions;     ///< barrier -> its copies' buffers' bytes
    std::set<std::string> regionsUnknown;                ///< barriers with a copy of no one buffer
    std::map<std::string, std::set<std::string>> barsOf; ///< tile -> every barrier it completes
    std::map<std::string, std::int64_t> bufferOf;        ///< tile -> its buffer's bytes
    for (const WarpCode& w : warps_) {
        std::map<std::string, std::pair<std::int64_t, std::vector<std::string>>> open;
        const std::set<std::string> copiesFirst = copiesBeforeExpect(w);
        std::map<std::string, std::vector<std::string>> pending; ///< copies before their expect_tx
        auto flush = [&](const std::string& bar) {
            auto g = open.find(bar);
            if (g == open.end() || g->second.second.empty()) return;
            const auto n = static_cast<std::int64_t>(g->second.second.size());
            std::int64_t share = g->second.first / n / 16 * 16;
            for (std::size_t k = 0; k < g->second.second.size(); ++k) {
                std::int64_t bytes =
                    k + 1 == g->second.second.size() ? g->second.first - share * (n - 1) : share;
                phaseOf.emplace(g->second.second[k], std::max<std::int64_t>(bytes, 16));
            }
            open.erase(g);
        };
        for (const Item& it : w.items) {
            const auto& in = it.insn;
            if (const auto expect = expectTxOf(it)) {
                const std::string bar = barrierKey(*expect->first, w.cta);
                flush(bar);
                open[bar] = {expect->second, {}};
                announced[bar] += expect->second;
                if (copiesFirst.count(bar)) { // the copies before it are its phase's
                    open[bar].second = std::move(pending[bar]);
                    pending.erase(bar);
                    flush(bar);
                }
            }
            if (completesTensorCopy(it)) {
                const std::string& tile = in.operands[1].name;
                const std::vector<int> dests = copyDestinations(in, w.cta);
                for (int d : dests) {
                    const std::string bar = in.operands[2].name + "@" + std::to_string(d);
                    copies[bar] += 1;
                    barOf.emplace(tile, bar);
                    barsOf[tile].insert(bar);
                    if (const auto r = regionBytes(in.operands[0].name); r && it.repeat == 1) {
                        intoRegions[bar] += *r;
                        bufferOf.emplace(tile, *r);
                    } else
                        regionsUnknown.insert(bar);
                    auto g = open.find(bar);
                    if (dests.size() == 1 && copiesFirst.count(bar))
                        pending[bar].push_back(tile);
                    else if (g != open.end() && dests.size() == 1)
                        g->second.second.push_back(tile);
                    else // a multicast copy's barriers see bytes no one warp announces
                        shared.insert(bar);
                }
            }
        }
        for (auto& [bar, group] : std::map(open))
            flush(bar);
        for (const auto& [bar, tiles] : pending) // copies no later expect_tx announces
            if (!tiles.empty()) shared.insert(bar);
    }
    // A multicast copy's bytes are its buffer's where, at each barrier it completes, the
    // buffers of the copies it sees add up to what the barrier's expect_tx announce: one box
    // per tensor map, each copy filling its slice of a stage (A from two CTAs of a 4x2
    // cluster, B from four: 2 x 8,192 + 4 x 4,096 bytes). An even share of 32,768 among those
    // six copies is 5,456 bytes, 32 short, so no phase would complete.
    auto fillsItsBuffer = [&](const std::string& tile) {
        const auto bars = barsOf.find(tile);
        return bars != barsOf.end() && bufferOf.count(tile) &&
               std::all_of(bars->second.begin(), bars->second.end(), [&](const std::string& bar) {
                   return !regionsUnknown.count(bar) && intoRegions[bar] == announced[bar];
               });
    };
    for (const auto& [tile, bar] : barOf) {
        auto phase = phaseOf.find(tile);
        if (phase != phaseOf.end() && !shared.count(bar))
            tileBytes_.emplace(tile, phase->second);
        else if (shared.count(bar) && fillsItsBuffer(tile))
            tileBytes_.emplace(tile, bufferOf.at(tile));
        else if (copies[bar] > 0)
            tileBytes_.emplace(tile,
                               std::max<std::int64_t>(announced[bar] / copies[bar] / 16 * 16, 16));
    }
    note(SourceLoc{m_.file, 0, 0},
         "tensor copies: the copies a phase's expect_tx announces share its bytes, in "
         "multiples of 16 (the tensor map is not in the PTX)");
}

} // namespace ptxmc::kernel
