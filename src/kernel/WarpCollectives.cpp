// elect, shfl.sync, vote.sync and activemask across the lanes of a warp that run them together.
#include "kernel/WarpCollectives.hpp"

#include <array>
#include <map>
#include <string_view>
#include <utility>

namespace ptxmc::kernel {

namespace {

constexpr std::array<std::pair<std::string_view, ShflMode>, 4> kShflModes = {{
    {"idx", ShflMode::Idx},
    {"up", ShflMode::Up},
    {"down", ShflMode::Down},
    {"bfly", ShflMode::Bfly},
}};
constexpr std::array<std::pair<std::string_view, VoteMode>, 4> kVoteModes = {{
    {"ballot", VoteMode::Ballot},
    {"any", VoteMode::Any},
    {"all", VoteMode::All},
    {"uni", VoteMode::Uni},
}};

template <class Mode, std::size_t N>
Mode collectiveMode(const std::array<std::pair<std::string_view, Mode>, N>& table,
                    const std::string& part) {
    for (const auto& [name, mode] : table)
        if (part == name) return mode;
    return Mode::Other;
}

} // namespace

ShflMode shflMode(const std::vector<std::string>& parts) {
    return parts.size() > 2 ? collectiveMode(kShflModes, parts[2]) : ShflMode::Idx;
}

VoteMode voteMode(const std::vector<std::string>& parts) {
    return parts.size() > 2 ? collectiveMode(kVoteModes, parts[2]) : VoteMode::Other;
}

int shflSource(ShflMode mode, int lane, std::uint64_t b, std::uint64_t members) {
    long src = lane;
    long bv = static_cast<long>(b & 31);
    switch (mode) {
    case ShflMode::Idx:
        src = bv;
        break;
    case ShflMode::Up:
        src = lane - bv;
        break;
    case ShflMode::Down:
        src = lane + bv;
        break;
    case ShflMode::Bfly:
        src = lane ^ bv;
        break;
    case ShflMode::Other:
        break;
    }
    if (src < 0 || src > 31 || !((members >> src) & 1U)) return lane;
    return static_cast<int>(src);
}

std::optional<std::uint64_t> voteResult(VoteMode mode, std::uint64_t ballot,
                                        std::uint64_t members) {
    switch (mode) {
    case VoteMode::Ballot:
        return ballot;
    case VoteMode::Any:
        return ballot != 0 ? 1 : 0;
    case VoteMode::All:
        return ballot == members ? 1 : 0;
    case VoteMode::Uni:
        return ballot == 0 || ballot == members ? 1 : 0;
    case VoteMode::Other:
        break;
    }
    return std::nullopt;
}

namespace {

void elect(const std::vector<Lane*>& group, const litmus::Instruction& in) {
    const int leader = group.front()->lane;
    for (Lane* L : group) {
        const litmus::Operand& d = in.operands.at(0);
        if (d.kind == litmus::Operand::Kind::Name && d.name != "_")
            L->regs[d.name] = Val::of(static_cast<std::uint64_t>(leader));
        if (!d.elements.empty()) L->regs[d.elements[0].name] = Val::of(L->lane == leader ? 1 : 0);
    }
}

void shfl(const std::vector<Lane*>& group, const litmus::Instruction& in,
          const LaneValues& values) {
    if (in.operands.size() < 4)
        throw InputError(in.loc, "shfl.sync needs d, a, b, c and a member mask");
    const ShflMode mode = shflMode(in.parts);
    std::map<int, Val> a;
    std::uint64_t members = 0;
    for (Lane* L : group) {
        a[L->lane] = values.value(*L, in.operands[1]);
        members |= 1ULL << L->lane;
    }
    std::vector<Val> results;
    for (Lane* L : group) {
        Val b = values.value(*L, in.operands[2]);
        Val r = b;
        if (b.known) {
            r = a[shflSource(mode, L->lane, b.v, members)];
            if (!r.probe) r.probe = b.probe;
        }
        results.push_back(r);
    }
    for (std::size_t i = 0; i < group.size(); ++i)
        LaneValues::set(*group[i], in.operands[0], results[i]);
}

void vote(const std::vector<Lane*>& group, const litmus::Instruction& in, const LaneValues& values,
          std::uint64_t members) {
    const VoteMode mode = voteMode(in.parts);
    std::uint64_t ballot = 0;
    bool known = true;
    Val r;
    std::uint32_t probe = 0;
    for (Lane* L : group) {
        Val p = values.value(*L, in.operands.at(1));
        if (!probe) probe = p.probe;
        if (!p.known) {
            known = false;
            if (!r.field) r.field = p.field;
        } else if (p.v)
            ballot |= 1ULL << L->lane;
    }
    if (known)
        if (auto v = voteResult(mode, ballot, members)) r = Val::of(*v);
    r.probe = probe;
    for (Lane* L : group)
        LaneValues::set(*L, in.operands.at(0), r);
}

} // namespace

void runCollective(const std::vector<Lane*>& group, const Statement& s, const LaneValues& values) {
    const litmus::Instruction& in = s.insn;
    std::uint64_t active = 0;
    for (Lane* L : group)
        active |= 1ULL << L->lane;
    if (s.op == ptx::ModuleOp::Elect) {
        elect(group, in);
    } else if (s.op == ptx::ModuleOp::Shfl) {
        shfl(group, in, values);
    } else if (s.op == ptx::ModuleOp::Vote) {
        vote(group, in, values, active);
    } else if (s.op == ptx::ModuleOp::Activemask) {
        for (Lane* L : group)
            LaneValues::set(*L, in.operands.at(0), Val::of(active));
    } else {
        for (Lane* L : group)
            LaneValues::unknownDests(*L, in);
    }
    for (Lane* L : group)
        ++L->pc;
}

} // namespace ptxmc::kernel
