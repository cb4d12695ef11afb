// Runs one cluster of an entry: passes, warps and their lanes, one statement at a time, recording.
#include "kernel/Evaluator.hpp"

#include "kernel/ControlFlow.hpp"
#include "kernel/Extract.hpp"
#include "kernel/LaneArith.hpp"
#include "kernel/LaneWays.hpp"
#include "kernel/VariableLayout.hpp"
#include "kernel/WarpCollectives.hpp"
#include "kernel/WgmmaFragments.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace ptxmc::kernel {

using ptx::ModuleOp;
using ptx::ModuleRole;

namespace {

std::uint32_t probeIn(const RawOperand& o) {
    if (o.value.probe) return o.value.probe;
    for (const RawOperand& e : o.elements)
        if (std::uint32_t p = probeIn(e)) return p;
    return 0;
}

} // namespace

void Evaluator::run() {
    out_.layout = layoutVariables(m_, f_, launch_.dynamicShared);
    params_.emplace(f_, out_.layout, launch_);
    memory_.emplace(values_, *params_, launch_, out_);
    shape_ = launchShape(f_, launch_);
    out_.block = shape_.block;
    out_.cluster = shape_.cluster;
    out_.grid = shape_.grid;
    // Values passed through shared memory (the tensor-memory address an alloc stores, a
    // broadcast tile index, a try_cancel response) are known on a later pass: a thread that
    // branches on one before the thread that stores it has run ends there, and the
    // evaluation runs again; only the last pass reports such a branch as an error.
    for (pass_ = 0; pass_ < kPasses; ++pass_) {
        Stored before = stored_;
        seen_ = Stored{};
        clc_.beginPass();
        probes_.clear();
        ways_.clear();
        deferred_ = false;
        allocations_.clear();
        columnsTaken_.clear();
        out_.warps.clear();
        out_.instructions = 0;
        notesThisPass_.clear();
        stops_.clear();
        if (launch_.listParams) {
            try {
                runCluster();
            } catch (const InputError& e) { // not one thread's: the listing ends here
                stops_.emplace(e.what(), noteOf(e));
                break;
            }
        } else {
            runCluster();
        }
        stored_ = seen_;
        const bool clcChanged = clc_.endPass();
        if (!deferred_ && stored_.values == before.values && !clcChanged) break;
    }
    for (auto& n : notesThisPass_)
        out_.notes.push_back(n.second);
    for (auto& n : stops_)
        out_.stops.push_back(n.second);
    std::vector<Note> unread = params_->unread(out_.paramReads);
    out_.unread.insert(out_.unread.end(), unread.begin(), unread.end());
    if (auto missing = params_->notGiven(out_.paramReads)) out_.notes.push_back(*missing);
}

void Evaluator::runCluster() {
    int ctas = shape_.ctas();
    int threads = shape_.threads();
    for (int cta = 0; cta < ctas; ++cta)
        for (int w = 0; w * 32 < threads; ++w)
            runWarp(cta, w, std::min(32, threads - w * 32));
}

void Evaluator::runWarp(int cta, int warp, int count) {
    std::vector<Lane> lanes(static_cast<std::size_t>(count));
    for (int l = 0; l < count; ++l) {
        Lane& L = lanes[static_cast<std::size_t>(l)];
        L.cta = cta;
        L.warp = warp;
        L.lane = l;
        L.tid = warp * 32 + l;
    }
    while (true) {
        // lanes at one warp-collective instruction, in one way of every branch on data
        std::map<std::pair<std::size_t, std::string>, std::vector<std::size_t>> waiting;
        for (std::size_t i = 0; i < lanes.size(); ++i)
            while (!lanes[i].done && !lanes[i].atJoin) {
                Outcome o = runUntilBlocked(lanes[i]);
                if (o == Outcome::Fork) {
                    Lane other = splitLane(lanes[i], splitTo_);
                    lanes.push_back(std::move(other));
                    continue;
                }
                if (o == Outcome::Collective)
                    waiting[{lanes[i].pc, waysKey(lanes[i])}].push_back(i);
                break;
            }
        if (mergeJoined(lanes)) continue;
        if (waiting.empty()) break;
        for (auto& [at, indices] : waiting) {
            std::vector<Lane*> group;
            for (std::size_t i : indices)
                group.push_back(&lanes[i]);
            runCollective(group, f_.body[group[0]->pc], values_);
        }
    }
    for (const Lane& L : lanes)
        if (!L.forks.empty()) {
            const Statement& b = f_.body[L.forks.back().way.stmt];
            throw InputError(b.loc,
                             fmt::format("the two ways of this branch on data do not meet again "
                                         "(thread {} of CTA {}): one waits for the other's lanes",
                                         L.tid, L.cta));
        }
    WarpTrace t;
    t.cta = cta;
    t.warp = warp;
    for (Lane& L : lanes) {
        out_.instructions += L.executed;
        t.lanes.push_back(std::move(L.steps));
    }
    out_.warps.push_back(std::move(t));
}

Outcome Evaluator::runUntilBlocked(Lane& L) {
    while (true) {
        Outcome o;
        if (!launch_.listParams) {
            o = step(L, false);
        } else {
            try {
                o = step(L, false);
            } catch (const InputError& e) { // the thread stops; the others go on
                stops_.emplace(e.what(), noteOf(e));
                L.done = true;
                return Outcome::Done;
            }
        }
        if (o != Outcome::Continue) return o;
    }
}

Outcome Evaluator::step(Lane& L, bool speculative) {
    if (!speculative && !L.forks.empty() && L.pc == L.forks.back().join) {
        L.atJoin = true;
        return Outcome::AtJoin;
    }
    if (L.pc >= f_.body.size()) {
        L.done = true;
        return Outcome::Done;
    }
    if (++L.executed > launch_.maxSteps)
        throw InputError(
            f_.body[L.pc].loc,
            fmt::format("thread {} of CTA {} ran {} instructions without ending: a loop "
                        "whose bound is a kernel parameter needs --param NAME=VALUE (its "
                        "parameters: {})",
                        L.tid, L.cta, launch_.maxSteps, params_->names()));
    const Statement& s = f_.body[L.pc];
    if (s.kind == Statement::Kind::Label) {
        ++L.pc;
        return Outcome::Continue;
    }
    const litmus::Instruction& in = s.insn;
    ModuleRole k = s.role;
    if (!L.taintAt.empty()) applyTaints(L);
    std::uint32_t guardProbe = 0;
    if (in.guard) {
        Val g = values_.read(L, in.guard->reg);
        // data: a value read from memory, or from shared memory no thread stores to
        // (a speculative run treats a value stored later as data: the real run defers)
        bool data =
            g.field == 0 || (g.field == kStoredLater && (speculative || pass_ + 1 >= kPasses));
        if (!g.known && g.way) {
            if (auto decided = wayDecides(L, g, in)) {
                if (k == ModuleRole::Branch) {
                    L.pc = *decided ? branchTarget(f_, s) : L.pc + 1;
                    return Outcome::Continue;
                }
                g = Val::of(*decided != in.guard->negated ? 1 : 0); // `read` applied no `!`
            } else {
                if (speculative) return Outcome::Fork;
                return forkOnWay(L, s, g);
            }
        }
        if (!g.known && k == ModuleRole::Branch && data) return joinSides(L, s, speculative);
        if (g.probe && k == ModuleRole::Branch) return probeBranch(L, s, g);
        if (g.probe && k != ModuleRole::Arith && k != ModuleRole::Data && k != ModuleRole::Setp)
            throw InputError(in.guard->loc, "whether this " + in.opcode +
                                                " runs depends on the result of " +
                                                probeText(g.probe) + ": " + kProbeRule);
        guardProbe = g.probe;
        if (!g.known) {
            if (k == ModuleRole::Arith || k == ModuleRole::Data || k == ModuleRole::Setp) {
                LaneValues::unknownDests(L, in, g.field);
                ++L.pc;
                return Outcome::Continue;
            }
            if (g.field == kStoredLater && !speculative && pass_ + 1 < kPasses) {
                deferred_ = true; // a value another thread stores: known on the next pass
                L.done = true;
                return Outcome::Done;
            }
            if (data) { // data the launch does not decide: both ways
                if (speculative) return Outcome::Fork;
                noteOnce(in.loc,
                         fmt::format("the {} at line {} runs only where a value read from {} "
                                     "(its guard @{}) says so: the check explores both ways "
                                     "(a nondet.pred choice), each warp going one way with "
                                     "all its lanes",
                                     in.opcode, in.loc.line, unknownOrigin(), in.guard->reg));
                return forkOnData(L, s);
            }
            if (!missingField(out_, g).empty()) out_.paramReads[g.field - 1].decides = true;
            failOnValue(in.guard->loc, "whether this " + in.opcode + " runs depends on ", out_, g,
                        "a value read from " + unknownOrigin() + " (its guard @" + in.guard->reg +
                            "): ptxmc follows control flow decided by the launch, "
                            "the parameters and mbarrier waits only");
        }
        if ((g.v != 0) == in.guard->negated) {
            if (guardProbe) taintDests(L, in, guardProbe);
            ++L.pc;
            return Outcome::Continue;
        }
    }
    if (!speculative && !L.wgmmaRegs.empty() && !ptx::isWgmmaOp(s.op)) recordFragmentAccess(L, s);
    switch (k) {
    case ModuleRole::Collective:
        return Outcome::Collective;
    case ModuleRole::Branch:
        L.pc = branchTarget(f_, s);
        return Outcome::Continue;
    case ModuleRole::Exit:
        L.done = true;
        return Outcome::Done;
    case ModuleRole::Trap:
        if (speculative) return Outcome::Trapped;
        throw InputError(in.loc,
                         fmt::format("thread {} of CTA {} reaches '{}'{} under this launch", L.tid,
                                     L.cta, in.opcode,
                                     s.op == ModuleOp::Call ? " (a failing device assert)" : ""));
    case ModuleRole::Arith:
        runArith(L, s, values_);
        break;
    case ModuleRole::Setp:
        runSetp(L, s, values_);
        break;
    case ModuleRole::ParamLoad:
        if (in.operands.size() < 2)
            throw InputError(in.loc, "ld.param needs a destination and an address");
        memory_->paramLoad(L, in, values_.value(L, in.operands[1]));
        break;
    case ModuleRole::ClcQuery:
        clc_.query(L, in, values_, launch_.tiles, out_.grid, out_.cluster, lastPass());
        break;
    case ModuleRole::Ignore:
        LaneValues::unknownDests(L, in);
        break;
    case ModuleRole::Data: // what it computes from a field not given still names the field
        LaneValues::unknownDests(L, in, values_.fieldOf(L, in));
        break;
    case ModuleRole::Unsupported:
        if (s.op == ModuleOp::Call)
            throw InputError(in.loc,
                             "a call to '" +
                                 (in.operands.empty() ? std::string("?") : in.operands[0].name) +
                                 "' is not supported: ptxmc kernel checks entries without calls "
                                 "(inline the callee, e.g. with __forceinline__)");
        throw InputError(in.loc, "'" + in.opcode +
                                     "' is not supported by ptxmc kernel: a memory or control "
                                     "instruction the model lacks, whose effect could change the "
                                     "answer, so the check stops here");
    case ModuleRole::Load:
        if (memory_->localAccess(L, in, false)) break;
        // a generic load of a parameter's bytes (cvta.param of a __grid_constant__ struct)
        if (in.operands.size() >= 2) {
            Val a = values_.value(L, in.operands[1]);
            if (a.known && a.v >= Layout::kGenericParam) {
                memory_->paramLoad(L, in, a);
                break;
            }
        }
        [[fallthrough]];
    case ModuleRole::Store:
        if (k == ModuleRole::Store && memory_->localAccess(L, in, true)) break;
        [[fallthrough]];
    case ModuleRole::Atomic:
    case ModuleRole::Event:
    case ModuleRole::Wait:
        if (speculative) return Outcome::SawEvent;
        record(L, s, k);
        break;
    }
    if (guardProbe) taintDests(L, in, guardProbe);
    ++L.pc;
    return Outcome::Continue;
}

void Evaluator::record(Lane& L, const Statement& s, ModuleRole k) {
    const litmus::Instruction& in = s.insn;
    Step st;
    st.stmt = L.pc;
    st.instance = L.counts[L.pc]++;
    for (const Lane::Fork& f : L.forks)
        st.guard.push_back(f.way);
    st.opcode = in.opcode;
    st.op = s.op;
    st.parts = in.parts;
    st.value = s.value;
    for (const litmus::Operand& o : in.operands)
        st.operands.push_back(values_.resolve(L, o));
    if (k == ModuleRole::Store && in.operands.size() >= 2 && st.operands[0].value.known) {
        if (auto off = Layout::sharedAddress(st.operands[0].value.v)) {
            Val v = values_.value(L, in.operands[1]);
            seen_.put(*off, v.known ? std::optional(v.v) : std::nullopt);
        }
    }
    if (k == ModuleRole::Load || k == ModuleRole::Atomic) {
        Val v;
        if (k == ModuleRole::Load && in.operands.size() >= 2 && st.operands[1].value.known)
            if (auto off = Layout::sharedAddress(st.operands[1].value.v)) {
                auto it = stored_.values.find(*off);
                if (it != stored_.values.end() && it->second) v = Val::of(*it->second);
                if (it == stored_.values.end()) v.field = kStoredLater;
                if (auto response = clc_.read(L, *off)) v = *response;
            }
        bool host = k == ModuleRole::Load && in.operands.size() >= 2 &&
                    st.operands[1].value.known && memory_->hostLoad(L, in, st.operands[1].value.v);
        if (!host && !in.operands.empty()) LaneValues::set(L, in.operands[0], v);
    }
    if (s.op == ModuleOp::ClcTryCancel) {
        noteOnce(f_.body[st.stmt].insn.loc,
                 clc_.request(L, st, f_.body[st.stmt].insn.loc, shape_.ctas(), launch_.tiles));
        return;
    }
    if (ptx::isWgmmaOp(s.op)) enterWgmma(L, s);
    if (s.op == ModuleOp::Tcgen05Alloc && !in.operands.empty() && st.operands[0].value.known) {
        // The allocated columns' address, stored for the other warps to load (column base).
        auto key = std::make_pair(L.cta, L.warp * 100000 + static_cast<int>(st.stmt));
        auto [it, fresh] = allocations_.emplace(key, columnsTaken_[L.cta]);
        if (fresh && in.operands.size() > 1) {
            Val cols = values_.value(L, in.operands[1]);
            columnsTaken_[L.cta] += cols.known ? cols.v : 32;
        }
        if (auto off = Layout::sharedAddress(st.operands[0].value.v)) seen_.put(*off, it->second);
    }
    for (std::size_t i = 0; i < st.operands.size(); ++i) // a first register: a result
        if (const RawOperand& o = st.operands[i];
            i == 0 && (o.kind == RawOperand::Kind::Reg || o.kind == RawOperand::Kind::Vec)) {
            continue;
        } else if (std::uint32_t probe = probeIn(o))
            throw InputError(o.loc, "this " + in.opcode + "'s operand depends on the result of " +
                                        probeText(probe) + ": " + kProbeRule);
    if (k == ModuleRole::Wait && !waitSucceeds(L, s, st)) return; // a probe: it acquired nothing
    if (k == ModuleRole::Event && !in.operands.empty() &&
        (ptx::isMbarrierOp(s.op) || s.op == ModuleOp::AtomAsync || s.op == ModuleOp::RedAsync) &&
        in.operands[0].kind == litmus::Operand::Kind::Name)
        LaneValues::set(L, in.operands[0], Val{});
    L.steps.push_back(std::move(st));
}

std::string Evaluator::unknownOrigin() const {
    for (const ParamRead& r : out_.paramReads)
        if (!r.value)
            return "memory or from a parameter field not given with --param "
                   "(--list-params lists the fields read)";
    return "memory";
}

void Evaluator::noteOnce(const SourceLoc& loc, const std::string& text) {
    notesThisPass_.emplace(text, Note{loc, text});
}

} // namespace ptxmc::kernel
