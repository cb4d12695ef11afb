// Warps with the same code as one role, and arrival and named-barrier counts scaled to warps.
#include "kernel/Builder.hpp"
#include "kernel/StepForms.hpp"
#include "ptx/Print.hpp"
#include "ptx/Tables.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <numeric>
#include <set>

namespace ptxmc::kernel {

using ptx::ModuleOp;
using OperandKind = RawOperand::Kind;

std::string Builder::signature(const WarpCode& w) const {
    std::string sig;
    for (const Item& it : w.items) {
        litmus::Instruction in = it.insn;
        for (auto& o : in.operands) {
            if (auto p = partWarp_.find(o.name); p != partWarp_.end() && p->second == w.warps[0])
                o.name = partRegion_.at(o.name) + "_wSELF";
            // a warp's own lane quarter: the warps of a warpgroup run the same code on
            // their own lanes
            if (isTmemOperand(o) && ownsQuarter(o, w.warps[0] % 4)) o = inQuarters(o, {}, "_lSELF");
        }
        sig += fmt::format("{}x{}|{}\n", it.lanes, it.repeat, text(in));
    }
    return sig;
}

bool Builder::mergeable(const WarpCode& w) const {
    for (const Item& it : w.items) {
        bool writes =
            ptx::isStOp(it.op) || ptx::isAtomOp(it.op) || ptx::isRedOp(it.op) ||
            (ptx::isCpOp(it.op) && !it.insn.operands.empty() && !copiesSharedToGlobal(it.insn));
        if (!writes) continue;
        for (const auto& o : it.insn.operands) {
            if (o.kind != litmus::Operand::Kind::Memory) continue;
            auto part = partWarp_.find(o.name);
            if (part == partWarp_.end() || part->second != w.warps[0]) return false;
            break;
        }
    }
    return true;
}

bool Builder::quarterFree(const WarpCode& role, const WarpCode& w) {
    bool writes = std::any_of(w.items.begin(), w.items.end(),
                              [](const Item& it) { return it.writesTmemQuarter; });
    if (!writes) return true;
    return std::none_of(role.warps.begin(), role.warps.end(),
                        [&](int r) { return r % 4 == w.warps[0] % 4; });
}

void Builder::spreadQuarters(Item& it, int first, const std::set<int>& quarters) {
    for (auto& o : it.insn.operands) {
        if (!ownsQuarter(o, first)) continue;
        std::size_t rows = 0;
        for (const std::string& n : tmemOperandNames(o))
            if (auto r = tmemRows_.find(n); r != tmemRows_.end()) rows = std::max(rows, r->second);
        std::set<int> cts;
        for (const std::string& n : tmemOperandNames(o))
            cts.insert(usedIn_[n].begin(), usedIn_[n].end());
        o = inQuarters(o, quarters);
        for (const std::string& n : tmemOperandNames(o)) {
            for (int c : cts)
                declareTmem(n, c);
            if (rows) tmemRows_[n] = std::max(tmemRows_[n], rows);
        }
    }
}

void Builder::mergeRoles() {
    std::vector<WarpCode> roles;
    std::map<std::pair<int, std::string>, std::size_t> bySig;
    std::map<std::string, std::string> renamed; ///< a merged warp's part -> the role's
    for (WarpCode& w : warps_) {
        auto key = std::make_pair(w.cta, signature(w));
        auto it = bySig.find(key);
        if (it != bySig.end() && mergeable(w) && mergeable(roles[it->second]) &&
            quarterFree(roles[it->second], w)) {
            WarpCode& role = roles[it->second];
            const std::string from = "_w" + std::to_string(w.warps[0]);
            const std::string to = "_w" + std::to_string(role.warps[0]);
            for (auto& [part, warp] : partWarp_)
                if (warp == w.warps[0]) renamed[part] = partRegion_.at(part) + to;
            // the global side of a copy of the merged part is the role's piece too, so that
            // the copies of the merged parts are one copy (its bytes: shareBytes)
            for (const auto& [piece, whole] : globalParts_)
                if (piece == whole + from) renamed[piece] = whole + to;
            role.warps.push_back(w.warps[0]);
            continue;
        }
        bySig.emplace(key, roles.size());
        roles.push_back(std::move(w));
    }
    for (WarpCode& role : roles) {
        int k = static_cast<int>(role.warps.size());
        std::set<int> quarters;
        for (int warp : role.warps)
            quarters.insert(warp % 4);
        std::vector<Item> items;
        for (Item& it : role.items) {
            it.lanes *= k;
            if (k > 1) spreadQuarters(it, role.warps[0] % 4, quarters);
            for (auto& o : it.insn.operands)
                if (auto r = renamed.find(o.name); r != renamed.end()) o.name = r->second;
            std::string t = text(it.insn);
            // copies of an async operation on parts that merged into one
            if (!items.empty() && text(items.back().insn) == t &&
                it.key.find("#part") != std::string::npos)
                continue;
            items.push_back(std::move(it));
        }
        role.items = std::move(items);
    }
    for (const auto& [from, to] : renamed)
        usedIn_.erase(from);
    warps_ = std::move(roles);
}

void Builder::scaleNamedBarriers() {
    // per CTA: a named barrier is a CTA's (every CTA of a cluster runs its own instances)
    std::map<std::pair<int, long>, int> participants, warps;
    for (const WarpCode& w : warps_) {
        std::set<long> ids;
        for (const Item& it : w.items)
            if (ptx::isBarOp(it.op) && it.insn.operands.size() == 2 &&
                it.insn.operands[0].kind == litmus::Operand::Kind::Integer)
                ids.insert(it.insn.operands[0].value);
        for (long id : ids) {
            participants[{w.cta, id}] += 1;
            warps[{w.cta, id}] += static_cast<int>(w.warps.size());
        }
    }
    for (WarpCode& w : warps_)
        for (Item& it : w.items) {
            if (!(ptx::isBarOp(it.op) && it.insn.operands.size() == 2)) continue;
            litmus::Operand& count = it.insn.operands[1];
            auto key = std::make_pair(w.cta, static_cast<long>(it.insn.operands[0].value));
            if (count.kind != litmus::Operand::Kind::Integer || warps[key] * 32 != count.value)
                continue;
            count.value = 32L * participants[key];
        }
}

std::vector<int> Builder::ranksOfMask(std::int64_t mask) const {
    const int n = x_.cluster[0] * x_.cluster[1] * x_.cluster[2];
    std::vector<int> out;
    for (int rank = 0; rank < n && rank < 32; ++rank)
        if ((mask >> rank) & 1) out.push_back(rank);
    return out;
}

std::vector<std::string> Builder::arrivalsOfMask(const std::string& barrier,
                                                 std::int64_t mask) const {
    std::vector<std::string> out;
    for (int rank : ranksOfMask(mask))
        out.push_back(barrier + "@" + std::to_string(rank));
    return out;
}

void Builder::scaleArrivals() {
    // Barriers one item arrives on together (a multicast commit) are scaled together: one divisor
    // for the group, so the item's repeat matches each of their counts.
    std::map<std::string, std::string> parent;
    std::function<std::string(const std::string&)> root = [&](const std::string& b) {
        const std::string up = parent.emplace(b, b).first->second;
        return up == b ? b : parent[b] = root(up);
    };
    for (const WarpCode& w : warps_)
        for (const Item& it : w.items)
            for (const std::string& bar : it.arriveOn)
                parent[root(bar)] = root(it.arriveOn.front());
    // per group: the gcd of its init counts and of the lanes of the arrivals on it; a barrier
    // no extracted arrive counts on (its arrivals are copies' or remote) keeps its count
    std::map<std::string, long> g;
    std::set<std::string> arrivedOn;
    for (const WarpCode& w : warps_)
        for (const Item& it : w.items)
            for (const std::string& bar : it.arriveOn) {
                long v = it.init ? static_cast<long>(it.insn.operands.at(1).value) : it.lanes;
                g[root(bar)] = std::gcd(g[root(bar)], v);
                if (!it.init) arrivedOn.insert(root(bar));
            }
    for (WarpCode& w : warps_)
        for (Item& it : w.items) {
            if (it.arriveOn.empty()) continue;
            const std::string group = root(it.arriveOn.front());
            const long d = arrivedOn.count(group) ? std::max(1L, g[group]) : 1L;
            if (it.init) {
                it.insn.operands.at(1).value /= d;
                if (it.lanes > 1)
                    note(it.insn.loc, fmt::format("mbarrier.init at line {} runs on {} lanes; "
                                                  "one initialisation is kept",
                                                  it.insn.loc.line, it.lanes));
            } else {
                it.repeat = static_cast<int>(it.lanes / d);
                if (d > 1)
                    note(it.insn.loc, fmt::format("arrive counts scaled by {} on {} (whole "
                                                  "warps arrive)",
                                                  d, it.arriveOn.front()));
            }
        }
}

} // namespace ptxmc::kernel
