// Control flow the launch does not decide: branches on data (joined or split) and mbarrier probes.
#include "kernel/ControlFlow.hpp"
#include "kernel/Evaluator.hpp"
#include "kernel/LaneWays.hpp"
#include "kernel/WgmmaFragments.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace ptxmc::kernel {

using ptx::ModuleOp;
using ptx::ModuleRole;

std::string Evaluator::probeText(std::uint32_t probe) const {
    const Probe& p = probes_.at(probe - 1);
    return fmt::format("the mbarrier probe at line {} ('{}')", p.loc.line, p.opcode);
}

void Evaluator::taintDests(Lane& L, const litmus::Instruction& in, std::uint32_t probe) {
    if (in.operands.empty()) return;
    auto mark = [&](const std::string& name) {
        if (name.empty() || name == "_" || name[0] == '!') return;
        L.regs[name].probe = probe;
    };
    const litmus::Operand& d = in.operands[0];
    if (d.kind == litmus::Operand::Kind::Name) mark(d.name);
    for (const auto& e : d.elements)
        if (e.kind == litmus::Operand::Kind::Name) mark(e.name);
}

void Evaluator::applyTaints(Lane& L) {
    for (std::size_t i = 0; i < L.taintAt.size();) {
        if (L.taintAt[i].pc != L.pc) {
            ++i;
            continue;
        }
        for (const std::string& r : L.taintAt[i].regs)
            L.regs[r].probe = L.taintAt[i].probe;
        for (std::uint64_t a : L.taintAt[i].local)
            L.local[a].probe = L.taintAt[i].probe;
        L.taintAt.erase(L.taintAt.begin() + static_cast<std::ptrdiff_t>(i));
    }
}

bool Evaluator::waitsOn(const Lane& c, const Probe& p) const {
    const litmus::Instruction& in = f_.body[c.pc].insn;
    if (f_.body[c.pc].kind != Statement::Kind::Instruction ||
        f_.body[c.pc].role != ModuleRole::Wait || in.operands.size() < 3)
        return false;
    Val a = values_.address(c, in.operands[1]), ph = values_.value(c, in.operands[2]);
    return a.known && ph.known && a.v == p.barrier && ph.v == p.phase;
}

template <class Joins>
SideEnd Evaluator::runSide(Lane& c, Joins&& joins, std::vector<std::size_t>* path,
                           const Probe* allowed) {
    for (int n = 0; n < kSideSteps; ++n) {
        if (joins(c.pc)) return SideEnd::Joined;
        if (path) path->push_back(c.pc);
        if (allowed && c.pc < f_.body.size() && waitsOn(c, *allowed)) {
            const litmus::Operand& d = f_.body[c.pc].insn.operands[0];
            if (d.kind == litmus::Operand::Kind::Name && d.name != "_") c.regs[d.name] = Val::of(1);
            ++c.pc;
            continue;
        }
        switch (step(c, true)) {
        case Outcome::Continue:
            continue;
        case Outcome::Collective:
            return SideEnd::Collective;
        case Outcome::Done:
            return SideEnd::Done;
        case Outcome::SawEvent:
            return SideEnd::Effect;
        case Outcome::Trapped:
            return SideEnd::Trap;
        case Outcome::Fork: // a branch on data whose sides differ: an effect ahead
        case Outcome::AtJoin:
            return SideEnd::Effect;
        }
    }
    return SideEnd::Budget;
}

std::string Evaluator::sideText(const Lane& c, SideEnd e) const {
    auto at = [&](const char* what) {
        const Statement& st = f_.body[c.pc];
        return fmt::format("{}'{}' at line {}", what, st.insn.opcode, st.loc.line);
    };
    switch (e) {
    case SideEnd::Effect:
        return at("");
    case SideEnd::Collective:
        return at("the warp-collective ");
    case SideEnd::Done:
        return "the end of the thread";
    case SideEnd::Trap:
        return at("");
    case SideEnd::Budget:
        return fmt::format("{} instructions without meeting the other side", kSideSteps);
    case SideEnd::Joined:
        break;
    }
    return "the other side";
}

Evaluator::Sides Evaluator::runSides(const Lane& L, std::size_t first, std::size_t second,
                                     const Probe* allowed) {
    Sides out{L, L, SideEnd::Done, SideEnd::Done, {}, {}, false};
    out.first.pc = first;
    out.first.steps.clear();
    out.firstEnd = runSide(
        out.first, [](std::size_t) { return false; }, &out.firstPath, nullptr);
    std::set<std::size_t> visited(out.firstPath.begin(), out.firstPath.end());
    out.second.pc = second;
    out.second.steps.clear();
    out.secondEnd = runSide(
        out.second, [&](std::size_t pc) { return visited.count(pc) > 0; }, &out.secondPath,
        allowed);
    if (out.secondEnd != SideEnd::Joined) return out;
    out.met = true;
    std::size_t meet = out.second.pc;
    out.first = L; // again, to where the second side met it
    out.first.pc = first;
    out.first.steps.clear();
    out.firstPath.clear();
    runSide(
        out.first, [&](std::size_t pc) { return pc == meet; }, &out.firstPath, nullptr);
    return out;
}

Outcome Evaluator::joinSides(Lane& L, const Statement& s, bool speculative) {
    const litmus::Instruction& in = s.insn;
    Sides sides = runSides(L, branchTarget(f_, s), L.pc + 1, nullptr);
    // A side that traps (a failing device assert) before any effect ends the kernel with an
    // error: the check follows the other side, assuming the assertion holds.
    if (!sides.met && (sides.firstEnd == SideEnd::Trap) != (sides.secondEnd == SideEnd::Trap)) {
        const Lane& trap = sides.firstEnd == SideEnd::Trap ? sides.first : sides.second;
        noteOnce(trap.pc < f_.body.size() ? f_.body[trap.pc].loc : in.loc,
                 fmt::format("the branch at line {} on a value read from memory goes to '{}' "
                             "(a failing assert) on one side: the check assumes it does not",
                             in.loc.line, f_.body[trap.pc].insn.opcode));
        L.pc = sides.firstEnd == SideEnd::Trap ? L.pc + 1 : branchTarget(f_, s);
        return Outcome::Continue;
    }
    if (!sides.met) {
        if (sides.firstEnd == SideEnd::Done && sides.secondEnd == SideEnd::Done) {
            L.done = true;
            return Outcome::Done;
        }
        if (speculative) return Outcome::Fork;
        return forkAt(L, s, sides);
    }
    std::size_t meet = sides.second.pc;
    replayFragmentAccesses(L, sides.firstPath);
    replayFragmentAccesses(L, sides.secondPath);
    mergeValues(L, sides.first, sides.second);
    L.executed = std::max(sides.first.executed, sides.second.executed);
    L.pc = meet;
    return Outcome::Continue;
}

std::optional<bool> Evaluator::wayDecides(const Lane& L, const Val& g,
                                          const litmus::Instruction& in) const {
    const DataChoice& c = ways_.at(g.way - 1);
    for (const Lane::Fork& f : L.forks)
        if (f.way.stmt == c.stmt && f.way.instance == c.instance)
            return (f.way.taken != g.wayNegated) != in.guard->negated;
    return std::nullopt;
}

Outcome Evaluator::forkOnWay(Lane& L, const Statement& s, const Val& g) {
    if (L.forks.size() >= kMaxWays)
        throw InputError(
            s.insn.guard->loc,
            fmt::format("whether this {} runs depends on data, inside {} branches on data "
                        "whose sides differ: a loop whose trip count depends on data? "
                        "ptxmc splits a thread at most {} deep",
                        s.insn.opcode, L.forks.size(), kMaxWays));
    const DataChoice c = ways_.at(g.way - 1);
    const bool guardHoldsWhenTaken = g.wayNegated == s.insn.guard->negated;
    const bool branch = s.role == ModuleRole::Branch;
    L.pendingFork =
        Lane::Fork{DataChoice{c.stmt, c.instance, true}, postDominator(L.pc), L.steps.size()};
    splitTo_ = {L.pc, L.pc}; // an instruction: each way runs it again, its guard decided
    if (branch) {
        const std::size_t onGuard = branchTarget(f_, s), offGuard = L.pc + 1;
        splitTo_ =
            guardHoldsWhenTaken ? std::pair{onGuard, offGuard} : std::pair{offGuard, onGuard};
    }
    return Outcome::Fork;
}

Outcome Evaluator::forkAt(Lane& L, const Statement& s, const Sides& sides) {
    const litmus::Instruction& in = s.insn;
    noteOnce(in.loc,
             fmt::format("the branch at line {} on a value read from {} (its guard @{}) runs "
                         "both ways: taken, the thread reaches {}; not taken, {}. The check "
                         "explores both (a nondet.pred choice), each warp going one way with "
                         "all its lanes, and identical warps merged into one thread alike",
                         in.loc.line, unknownOrigin(), in.guard->reg,
                         sideText(sides.first, sides.firstEnd),
                         sideText(sides.second, sides.secondEnd)));
    return forkOnData(L, s);
}

Outcome Evaluator::forkOnData(Lane& L, const Statement& s) {
    const litmus::Instruction& in = s.insn;
    Val way; // nonzero exactly where `@p` holds: on the taken way, or off it for `@!p`
    way.way = wayIndex(DataChoice{L.pc, L.counts[L.pc]++, true});
    way.wayNegated = in.guard->negated;
    L.regs[in.guard->reg] = way;
    return forkOnWay(L, s, way);
}

std::uint32_t Evaluator::wayIndex(DataChoice c) {
    c.taken = true;
    for (std::size_t i = 0; i < ways_.size(); ++i)
        if (ways_[i] == c) return static_cast<std::uint32_t>(i + 1);
    ways_.push_back(c);
    return static_cast<std::uint32_t>(ways_.size());
}

std::size_t Evaluator::postDominator(std::size_t pc) {
    if (ipdom_.empty()) ipdom_ = postDominators(f_);
    return ipdom_.at(pc);
}

void Evaluator::replayFragmentAccesses(Lane& L, const std::vector<std::size_t>& path) {
    if (L.wgmmaRegs.empty()) return;
    std::size_t pc = L.pc;
    for (std::size_t at : path) {
        if (at >= f_.body.size() || f_.body[at].kind != Statement::Kind::Instruction) continue;
        L.pc = at;
        recordFragmentAccess(L, f_.body[at]);
    }
    L.pc = pc;
}

Outcome Evaluator::probeBranch(Lane& L, const Statement& s, const Val& g) {
    const litmus::Instruction& in = s.insn;
    bool takes = (g.v != 0) != in.guard->negated;
    std::size_t failure = takes ? branchTarget(f_, s) : L.pc + 1;
    std::size_t other = takes ? L.pc + 1 : branchTarget(f_, s);
    const Probe probe =
        probes_.at(g.probe - 1); // a copy: probes_ must not move under the side runs
    Sides sides = runSides(L, other, failure, &probe);
    if (!sides.met && !(sides.firstEnd == SideEnd::Done && sides.secondEnd == SideEnd::Done))
        throw InputError(
            in.guard->loc,
            fmt::format("this branch on the result of {} does not only skip a wait on its "
                        "barrier and phase: on the probe's failure side the thread reaches "
                        "{}, on its success side {}; {}",
                        probeText(g.probe), sideText(sides.second, sides.secondEnd),
                        sideText(sides.first, sides.firstEnd), kProbeRule));
    if (sides.met) {
        Lane::Taint t{sides.second.pc, {}, {}, g.probe};
        for (const auto& [a, v] : sides.second.local)
            if (auto o = sides.first.local.find(a); o == sides.first.local.end() || o->second != v)
                t.local.push_back(a);
        for (const auto& [a, v] : sides.first.local)
            if (!sides.second.local.count(a)) t.local.push_back(a);
        for (const auto& [name, v] : sides.second.regs) {
            auto o = sides.first.regs.find(name);
            if (o == sides.first.regs.end() || o->second != v) t.regs.push_back(name);
        }
        for (const auto& [name, v] : sides.first.regs)
            if (!sides.second.regs.count(name)) t.regs.push_back(name);
        std::sort(t.regs.begin(), t.regs.end());
        if (!t.regs.empty() || !t.local.empty()) L.taintAt.push_back(std::move(t));
    }
    L.pc = failure;
    return Outcome::Continue;
}

bool Evaluator::waitSucceeds(Lane& L, const Statement& s, const Step& st) {
    const litmus::Instruction& in = s.insn;
    if (in.operands.size() < 3)
        throw InputError(in.loc, in.opcode + " needs a result, a barrier and a phase");
    const litmus::Operand& d = in.operands[0];
    Lane fork = L;
    fork.steps.clear();
    LaneValues::set(fork, d, Val::of(0));
    if (d.kind == litmus::Operand::Kind::Name && d.name != "_") {
        L.regs[d.name] = Val::of(1);
        fork.regs[d.name] = Val::of(0);
    }
    if (d.kind == litmus::Operand::Kind::Sink) return true; // no result: it cannot fail
    ++fork.pc;
    for (int n = 0; n < kSideSteps; ++n) {
        Outcome o = step(fork, true);
        if (o == Outcome::Continue) continue;
        if (o == Outcome::SawEvent &&
            waitsOn(fork, Probe{{}, {}, st.operands[1].value.v, st.operands[2].value.v}) &&
            st.operands[1].value.known && st.operands[2].value.known)
            return true;
        break;
    }
    if (!st.operands[1].value.known || !st.operands[2].value.known)
        throw InputError(in.loc, "the barrier or phase of this " + in.opcode +
                                     " depends on data: ptxmc cannot tell which phase it probes");
    probes_.push_back(Probe{in.loc, in.opcode, st.operands[1].value.v, st.operands[2].value.v});
    if (d.kind == litmus::Operand::Kind::Name && d.name != "_")
        L.regs[d.name] = Val{true, 0, 0, static_cast<std::uint32_t>(probes_.size())};
    noteOnce(in.loc, fmt::format("the {} at line {} is a probe (its failure is not answered "
                                 "by waiting again at once): the check follows its failure "
                                 "side, the later wait on its barrier and phase acquiring",
                                 in.opcode, in.loc.line));
    return false;
}

} // namespace ptxmc::kernel
