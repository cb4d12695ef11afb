// Tensor-memory locations of an extracted kernel: accumulators and their slices.
#include "kernel/TmemSlices.hpp"

#include "ptx/Tables.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>

namespace ptxmc::kernel {

void TmemSlices::addWrite(const Span& span) {
    std::uint64_t base = accumulatorOf(span.lo);
    auto& cuts = cuts_[base];
    cuts.insert(base);
    cuts.insert(span.lo);
    if (span.hi != kEnd) cuts.insert(span.hi);
}

void TmemSlices::addBound(std::uint64_t end) {
    if (end > 0) bounds_[accumulatorOf(end - 1)].insert(end);
}

std::uint64_t TmemSlices::accumulatorOf(std::uint64_t col) const {
    auto it = bases_.upper_bound(col);
    return it == bases_.begin() ? col : *std::prev(it);
}

std::vector<std::string> TmemSlices::names(const Span& span) const {
    std::uint64_t base = accumulatorOf(span.lo);
    auto sliced = cuts_.find(base);
    if (sliced == cuts_.end()) return {"tmem_" + std::to_string(base)};
    std::set<std::uint64_t> cuts = sliced->second;
    if (auto b = bounds_.find(base); b != bounds_.end())
        cuts.insert(b->second.begin(), b->second.end());
    std::vector<std::string> out;
    for (auto it = cuts.begin(); it != cuts.end(); ++it) {
        auto next = std::next(it);
        std::uint64_t hi = next == cuts.end() ? kEnd : *next;
        if (!(span.lo < hi && *it < span.hi)) continue;
        for (int q = 0; q < 4; ++q)
            if (span.quarter == kAllQuarters || span.quarter == q)
                out.push_back(fmt::format("tmem_{}_l{}_c{}", base, 32 * q, *it));
    }
    return out;
}

int TmemSlices::quarterOf(const std::string& name) {
    auto l = name.rfind("_l");
    auto c = name.rfind("_c");
    if (name.rfind("tmem_", 0) != 0 || l == std::string::npos || c == std::string::npos || c < l)
        return kAllQuarters;
    std::string lane = name.substr(l + 2, c - l - 2);
    if (lane.empty() || lane.size() > 3 || !std::all_of(lane.begin(), lane.end(), ::isdigit))
        return kAllQuarters; // a name of the kernel's own that only looks like a slice
    return std::stoi(lane) / 32;
}

std::string TmemSlices::inQuarter(const std::string& name, int q) {
    auto l = name.rfind("_l");
    auto c = name.rfind("_c");
    return name.substr(0, l) + "_l" + std::to_string(32 * q) + name.substr(c);
}

std::uint64_t tmemColumns(const std::vector<std::string>& parts) {
    // Columns per repetition: a shape moves `bits` of each lane, 32 bits a column; .num
    // repeats it along the columns; .pack::16b / .unpack::16b put two 16-bit elements of a
    // register in two columns ({Tcgen05Ld}, {Tcgen05St}).
    std::uint64_t perRep = 1, num = 1, pack = 1;
    for (const std::string& p : parts) {
        if (const ptx::LdStShapeRow* shape = ptx::ldStShapeNamed(p)) {
            if (shape->halfSplit) return TmemSlices::kEnd; // a second half at an offset
            perRep = static_cast<std::uint64_t>(shape->columnsPerRepeat);
        } else if (ptx::valueOf(ptx::kPacks, p)) {
            pack = 2;
        } else if (auto n = ptx::ldStRepeatNamed(p)) {
            num = static_cast<std::uint64_t>(*n);
        }
    }
    return perRep * num * pack;
}

std::uint64_t mmaColumns(std::uint64_t idesc) {
    // "17-22: N, Dimension of Matrix B (3 LSBs not included): N >> 3", the instruction
    // descriptor of every .kind ({Tcgen05Mma})
    return ((idesc >> 17) & 0x3F) << 3;
}

litmus::Operand tmemOperand(const std::vector<std::string>& names, const SourceLoc& loc) {
    litmus::Operand r;
    r.loc = loc;
    if (names.size() == 1) {
        r.kind = litmus::Operand::Kind::Memory;
        r.name = names[0];
        return r;
    }
    r.kind = litmus::Operand::Kind::Vector;
    for (const std::string& n : names) {
        litmus::Operand e;
        e.kind = litmus::Operand::Kind::Name;
        e.loc = loc;
        e.name = n;
        r.elements.push_back(e);
    }
    return r;
}

/** The names of a tensor-memory operand (one location or a list of slices). */
std::vector<std::string> tmemOperandNames(const litmus::Operand& o) {
    if (o.kind == litmus::Operand::Kind::Memory) return {o.name};
    std::vector<std::string> out;
    for (const auto& e : o.elements)
        out.push_back(e.name);
    return out;
}

/** Whether every name of `o` is a slice of lane quarter `q` (a warp's own lanes). */
bool ownsQuarter(const litmus::Operand& o, int q) {
    if (o.kind != litmus::Operand::Kind::Memory && o.kind != litmus::Operand::Kind::Vector)
        return false;
    std::vector<std::string> names = tmemOperandNames(o);
    if (o.kind == litmus::Operand::Kind::Vector &&
        (names.empty() || names[0].rfind("tmem_", 0) != 0))
        return false;
    for (const std::string& n : names)
        if (TmemSlices::quarterOf(n) != q) return false;
    return true;
}

/**
 * An own-quarter operand for the warps of a role: its slices in each quarter of `quarters`,
 * or, with `self`, its slices with the quarter written as `self` (the role's signature).
 */
litmus::Operand inQuarters(const litmus::Operand& o, const std::set<int>& quarters,
                           const std::string& self) {
    std::vector<std::string> names;
    for (const std::string& n : tmemOperandNames(o)) {
        if (!self.empty()) {
            std::string q = TmemSlices::inQuarter(n, 0);
            names.push_back(q.replace(q.rfind("_l0"), 3, self));
            continue;
        }
        for (int q : quarters)
            names.push_back(TmemSlices::inQuarter(n, q));
    }
    return tmemOperand(names, o.loc);
}

} // namespace ptxmc::kernel
