// Splits a lane at a branch on data whose sides differ, and joins the two ways where they meet.
#include "kernel/LaneWays.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace ptxmc::kernel {

void mergeValues(Lane& into, const Lane& a, const Lane& b) {
    std::unordered_map<std::string, Val> merged = a.regs;
    for (auto& [name, v] : merged) {
        auto other = b.regs.find(name);
        Val w = other == b.regs.end() ? Val{} : other->second;
        if (v != w) v = Val{false, v.known ? w.field : v.field, 0, v.probe ? v.probe : w.probe};
    }
    for (const auto& [name, w] : b.regs)
        if (!merged.count(name)) merged[name] = Val{false, w.field, 0, w.probe};
    std::map<std::uint64_t, Val> local = a.local;
    for (auto& [addr, v] : local) {
        auto other = b.local.find(addr);
        if (other == b.local.end() || other->second != v) v = Val{};
    }
    for (const auto& [addr, w] : b.local)
        if (!local.count(addr)) local[addr] = Val{};
    into.local = std::move(local);
    into.regs = std::move(merged);
}

Lane splitLane(Lane& L, std::pair<std::size_t, std::size_t> to) {
    Lane::Fork f = *L.pendingFork;
    L.pendingFork.reset();
    Lane other = L;
    L.forks.push_back(f);
    L.pc = to.first;
    f.way.taken = false;
    other.forks.push_back(f);
    other.pc = to.second;
    return other;
}

std::string waysKey(const Lane& L) {
    std::string k;
    for (const Lane::Fork& f : L.forks)
        k += fmt::format("{}:{}:{};", f.way.stmt, f.way.instance, f.way.taken ? 1 : 0);
    return k;
}

bool twins(const Lane& a, const Lane& b) {
    if (a.lane != b.lane || a.forks.empty() || a.forks.size() != b.forks.size()) return false;
    if (!(a.atJoin || a.done) || !(b.atJoin || b.done)) return false;
    for (std::size_t i = 0; i + 1 < a.forks.size(); ++i)
        if (a.forks[i].way != b.forks[i].way) return false;
    const DataChoice &x = a.forks.back().way, &y = b.forks.back().way;
    return x.stmt == y.stmt && x.instance == y.instance && x.taken != y.taken;
}

namespace {

Lane joinTwins(const Lane& taken, const Lane& other) {
    Lane joined = taken;
    const Lane::Fork f = taken.forks.back();
    joined.steps.insert(joined.steps.end(),
                        other.steps.begin() + static_cast<std::ptrdiff_t>(f.prefix),
                        other.steps.end());
    mergeValues(joined, taken, other);
    for (const auto& [stmt, n] : other.counts)
        joined.counts[stmt] = std::max(joined.counts[stmt], n);
    for (const auto& [reg, first] : other.wgmmaRegs)
        joined.wgmmaRegs.emplace(reg, first);
    joined.wgmmaWindow = std::max(taken.wgmmaWindow, other.wgmmaWindow);
    joined.executed = std::max(taken.executed, other.executed);
    joined.forks.pop_back();
    joined.atJoin = false;
    joined.done = taken.done || other.done;
    joined.pc = f.join;
    return joined;
}

} // namespace

bool mergeJoined(std::vector<Lane>& lanes) {
    for (std::size_t i = 0; i < lanes.size(); ++i)
        for (std::size_t j = i + 1; j < lanes.size(); ++j) {
            if (!twins(lanes[i], lanes[j])) continue;
            const bool firstTaken = lanes[i].forks.back().way.taken;
            lanes[i] = firstTaken ? joinTwins(lanes[i], lanes[j]) : joinTwins(lanes[j], lanes[i]);
            lanes.erase(lanes.begin() + static_cast<std::ptrdiff_t>(j));
            return true;
        }
    return false;
}

} // namespace ptxmc::kernel
