// Strengthenings over decoded instructions: where a fence could go, what could be made stronger.
#include "ptx/Strengthen.hpp"

#include "ptx/Decode.hpp"
#include "ptx/Print.hpp"
#include "support/SourceLoc.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace ptxmc::ptx {

namespace {

using Kind = Strengthening::Kind;

/**
 * Strengthenings rewrite litmus source on purpose (the strengthened test is printed as a litmus
 * file), so they decode the cells they rewrite; nothing for a label or malformed text.
 */
std::optional<Insn> decoded(const litmus::Instruction& inst) {
    if (inst.label) return std::nullopt;
    try {
        return decode(inst);
    } catch (const InputError&) {
        return std::nullopt;
    }
}

bool isTcgen05Op(const Insn& i) {
    return i.family() == Family::Tcgen05 && !i.is<Tcgen05Fence>();
}

/** An execution-ordering operation (PTX ISA {Tcgen05InterThreadSync}): waits, barriers, strong
 * accesses. */
bool ordersExecution(const Insn& i) {
    if (i.is<MbarrierWait>() || i.is<MbarrierArrive>() || i.is<Barrier>()) return true;
    if (const auto* l = i.as<Ld>()) return l->sem != Sem::None && l->sem != Sem::Weak;
    if (const auto* s = i.as<St>()) return !s->async && s->sem != Sem::None && s->sem != Sem::Weak;
    return i.is<Atom>();
}

/** A reader or writer in the async proxy, whose generic neighbours need fence.proxy.async. */
bool usesAsyncProxy(const Insn& i) {
    return i.is<BulkCopy>() || i.is<Tcgen05Mma>() || i.is<Tcgen05Cp>();
}

bool genericAccess(const Insn& i) {
    return i.is<Ld>() || (i.is<St>() && !i.as<St>()->async) || i.is<Atom>();
}

bool weakOrRelaxed(Sem s) {
    return s == Sem::None || s == Sem::Weak || s == Sem::Relaxed;
}

bool acquirable(const Insn& i) {
    if (const auto* l = i.as<Ld>()) return l->name == LdName::Ld && weakOrRelaxed(l->sem);
    if (const auto* a = i.as<Atom>()) return a->returns() && weakOrRelaxed(a->sem);
    if (const auto* w = i.as<MbarrierWait>()) return w->sem == Sem::Relaxed;
    return false;
}

bool releasable(const Insn& i) {
    if (const auto* s = i.as<St>())
        return s->name == StName::St && !s->async && weakOrRelaxed(s->sem);
    if (const auto* a = i.as<MbarrierArrive>()) return a->sem == Sem::Relaxed;
    if (const auto* b = i.as<Barrier>()) return b->cluster && b->arrive && b->sem == Sem::Relaxed;
    return false;
}

} // namespace

namespace {

/** The widest scope two threads of the test share: .cta within one CTA, .cluster within a
 *  cluster, .gpu within a GPU, .sys across GPUs. */
Scope scopeSpanned(const litmus::Test& test) {
    Scope widest = Scope::Cta;
    auto clusterOf = [](const litmus::Thread& t) { return t.cluster ? *t.cluster : -1 - t.cta; };
    for (const auto& a : test.threads)
        for (const auto& b : test.threads) {
            Scope s = a.gpu != b.gpu                 ? Scope::Sys
                      : clusterOf(a) != clusterOf(b) ? Scope::Gpu
                      : a.cta != b.cta               ? Scope::Cluster
                                                     : Scope::Cta;
            widest = std::max(widest, s);
        }
    return widest;
}

/** The scope `i` has, and the widest it can take; nullopt when it has none to widen. */
std::optional<std::pair<Scope, Scope>> scopeRange(const Insn& i) {
    auto strong = [](Sem s) { return s != Sem::None && s != Sem::Weak; };
    auto given = [](Scope s, Scope dflt) { return s == Scope::None ? dflt : s; };
    if (const auto* a = i.as<MbarrierArrive>())
        return std::pair{given(a->scope, Scope::Cta), Scope::Cluster};
    if (const auto* w = i.as<MbarrierWait>())
        return std::pair{given(w->scope, Scope::Cta), Scope::Cluster};
    if (const auto* f = i.as<Fence>()) return std::pair{f->scope, Scope::Sys};
    if (const auto* l = i.as<Ld>(); l && l->name == LdName::Ld && strong(l->sem))
        return std::pair{given(l->scope, Scope::Gpu), Scope::Sys};
    if (const auto* s = i.as<St>(); s && s->name == StName::St && !s->async && strong(s->sem))
        return std::pair{given(s->scope, Scope::Gpu), Scope::Sys};
    if (const auto* a = i.as<Atom>(); a && strong(a->sem))
        return std::pair{given(a->scope, Scope::Gpu), Scope::Sys};
    return std::nullopt;
}

/** Each wider scope `i` can take, up to the widest the test's threads span. */
void addWidenings(std::vector<Strengthening>& out, const Insn& i, Strengthening at, Scope spanned) {
    auto range = scopeRange(i);
    if (!range) return;
    for (Scope s : {Scope::Cluster, Scope::Gpu, Scope::Sys})
        if (s > range->first && s <= range->second && s <= spanned) {
            at.kind = Kind::Widen;
            at.scope = s;
            out.push_back(at);
        }
}

/** The parity a wait names (its third operand; try_wait may add a time hint), when it is
 *  written as a number. */
std::optional<int> parityOf(const litmus::Instruction& inst) {
    if (inst.operands.size() < 3 || inst.operands[2].kind != litmus::Operand::Kind::Integer)
        return std::nullopt;
    return static_cast<int>(inst.operands[2].value & 1);
}

/**
 * A ring's waits on one barrier alternate their parity round by round: two waits in a row
 * expecting the same parity mean the round between them has no wait. Each place between them
 * can take the missing one.
 */
void addMissingWaits(std::vector<Strengthening>& out, const litmus::Thread& t,
                     const std::vector<std::optional<Insn>>& code) {
    std::map<std::string, std::size_t> lastWait; // barrier -> index of its latest parity wait
    for (std::size_t k = 0; k < code.size(); ++k) {
        const auto* w = code[k] ? code[k]->as<MbarrierWait>() : nullptr;
        if (!w || !w->parity || !parityOf(t.code[k])) continue;
        const std::string barrier = printOperand(t.code[k].operands.at(1));
        auto prev = lastWait.find(barrier);
        if (prev != lastWait.end() && parityOf(t.code[prev->second]) == parityOf(t.code[k]))
            for (std::size_t at = prev->second + 1; at < k; ++at) {
                Strengthening s{Kind::MbarrierWait, t.id, static_cast<int>(at)};
                s.copyOf = static_cast<int>(k);
                s.parity = 1 - *parityOf(t.code[k]);
                out.push_back(s);
            }
        lastWait[barrier] = k;
    }
}

/** The text an instruction repeats with in every iteration: opcode and operands. */
std::string repeatKey(const litmus::Instruction& inst) {
    std::string key = inst.opcode;
    for (const auto& o : inst.operands)
        key += " " + printOperand(o);
    return key;
}

/**
 * An instruction that repeats (each round of a ring) and was guarded, the first time, by a
 * wait on some barrier since the start is guarded by a wait on it every time since its
 * previous occurrence: where one is missing, the copy of the barrier's latest wait with the
 * other parity (the next phase) goes right before it. A ring whose producer skips one round's
 * empty wait has such a gap even when that barrier has no later wait to betray it.
 */
void addUnguardedRepeats(std::vector<Strengthening>& out, const litmus::Thread& t,
                         const std::vector<std::optional<Insn>>& code) {
    auto barrierOf = [&](std::size_t k) -> std::optional<std::string> {
        const auto* w = code[k] ? code[k]->as<MbarrierWait>() : nullptr;
        if (!w || !w->parity || !parityOf(t.code[k])) return std::nullopt;
        return printOperand(t.code[k].operands.at(1));
    };
    std::map<std::string, std::set<std::string>> firstGuards; // text -> barriers waited before
    std::map<std::string, std::size_t> previous;              // text -> its latest index
    std::map<std::string, std::size_t> latestWait;            // barrier -> its latest wait
    std::set<std::string> waitedSinceStart;
    for (std::size_t k = 0; k < code.size(); ++k) {
        if (auto b = barrierOf(k)) {
            latestWait[*b] = k;
            waitedSinceStart.insert(*b);
            continue;
        }
        if (!code[k] || code[k]->is<MbarrierWait>()) continue;
        const std::string key = repeatKey(t.code[k]);
        auto prev = previous.find(key);
        if (prev == previous.end()) {
            firstGuards[key] = waitedSinceStart;
        } else {
            for (const std::string& b : firstGuards[key]) {
                const std::size_t w = latestWait.at(b);
                if (w > prev->second) continue; // waited again since its last occurrence
                Strengthening s{Kind::MbarrierWait, t.id, static_cast<int>(k)};
                s.copyOf = static_cast<int>(w);
                s.parity = 1 - *parityOf(t.code[w]);
                out.push_back(s);
            }
        }
        previous[key] = k;
    }
}

/** The names of the test's mbarriers (single ones and arrays). */
std::set<std::string> mbarrierNames(const litmus::Test& test) {
    std::set<std::string> out;
    for (const auto& d : test.locations)
        if (d.space == ir::Space::Mbarrier) out.insert(d.name);
    return out;
}

/** The mbarrier operand of an instruction that is not a wait (an arrive, a commit, a copy's
 *  complete_tx), when it has one. */
std::optional<litmus::Operand> arrivedOn(const litmus::Instruction& inst,
                                         const std::optional<Insn>& decodedInst,
                                         const std::set<std::string>& barriers) {
    if (!decodedInst || decodedInst->is<MbarrierWait>() || decodedInst->is<MbarrierInit>())
        return std::nullopt;
    for (const auto& o : inst.operands)
        if (o.kind == litmus::Operand::Kind::Memory && barriers.count(o.name)) return o;
    return std::nullopt;
}

/** A backward branch's loop: the indices after its label up to the branch. */
struct LoopBody {
    std::size_t begin = 0, end = 0;
};

std::vector<LoopBody> loopsOf(const litmus::Thread& t,
                              const std::vector<std::optional<Insn>>& code) {
    std::vector<LoopBody> out;
    for (std::size_t k = 0; k < code.size(); ++k) {
        // the label: bra's operand, or a compare-branch's third (beq r, s, L)
        const std::size_t target = !code[k]                       ? t.code[k].operands.size()
                                   : code[k]->is<Bra>()           ? 0
                                   : code[k]->is<CompareBranch>() ? 2
                                                                  : t.code[k].operands.size();
        if (target >= t.code[k].operands.size()) continue;
        for (std::size_t l = 0; l < k; ++l)
            if (t.code[l].label && *t.code[l].label == t.code[k].operands[target].name)
                out.push_back({l + 1, k});
    }
    return out;
}

/** A register the loop flips each round (`xor.b32 r, r, 1`) or takes flipped from another
 *  (`xor.b32 pe, ph, 1`): a ring's phase parity. */
std::set<std::string> flippedRegisters(const litmus::Thread& t,
                                       const std::vector<std::optional<Insn>>& code,
                                       const LoopBody& loop) {
    std::set<std::string> out;
    for (std::size_t k = loop.begin; k < loop.end; ++k) {
        const auto* a = code[k] ? code[k]->as<Arith>() : nullptr;
        const auto& ops = t.code[k].operands;
        if (a && a->op == ArithOp::Xor && ops.size() == 3 &&
            ops[0].kind == litmus::Operand::Kind::Name &&
            ops[2].kind == litmus::Operand::Kind::Integer && ops[2].value == 1)
            out.insert(ops[0].name);
    }
    return out;
}

/** Touches memory or a barrier: the first such instruction of a round is what a wait at the
 *  round's top guards. */
bool touchesMemory(const litmus::Instruction& inst) {
    return std::any_of(inst.operands.begin(), inst.operands.end(),
                       [](const auto& o) { return o.kind == litmus::Operand::Kind::Memory; });
}

/**
 * A loop that never waits on a barrier other threads arrive on (a ring whose producer lost its
 * empty wait, or whose consumer lost its full wait) can take that wait at the top of its round:
 * a copy of some parity wait of the test, on that barrier, with a parity register the loop
 * flips, at each place from the round's start to its first memory or barrier operation. The
 * parity's sense at a place is the register's there; explain's re-check keeps what works.
 */
void addLoopWaits(std::vector<Strengthening>& out, const litmus::Test& test,
                  const litmus::Thread& t, const std::vector<std::optional<Insn>>& code,
                  const std::map<int, std::vector<std::optional<Insn>>>& decodedThreads) {
    const std::set<std::string> barriers = mbarrierNames(test);
    // a blocking parity wait to copy (try_wait, its result dropped): this thread's first, else
    // the test's first
    std::optional<std::pair<int, int>> templ;
    for (const auto& [id, other] : decodedThreads)
        for (std::size_t k = 0; k < other.size(); ++k) {
            const auto* w = other[k] ? other[k]->as<MbarrierWait>() : nullptr;
            if (w && w->parity && w->tryWait && (!templ || (id == t.id && templ->first != t.id)))
                templ = std::pair{id, static_cast<int>(k)};
        }
    if (!templ) return;
    // an arrive's barrier indexed by the arriving thread's stage register is indexed here by
    // this loop's own stage register for mbarrier arrays (an address of the same scale)
    auto ownIndex = [&](litmus::Operand barrier, const LoopBody& loop) {
        if (!barrier.indexReg) return barrier;
        for (std::size_t k = loop.begin; k < loop.end; ++k)
            for (const auto& o : t.code[k].operands)
                if (o.kind == litmus::Operand::Kind::Memory && o.indexReg &&
                    barriers.count(o.name) && o.indexScale == barrier.indexScale) {
                    barrier.indexReg = o.indexReg;
                    return barrier;
                }
        return barrier;
    };
    for (const LoopBody& loop : loopsOf(t, code)) {
        std::set<std::string> waited;
        for (std::size_t k = loop.begin; k < loop.end; ++k)
            if (code[k] && code[k]->is<MbarrierWait>() && t.code[k].operands.size() > 1)
                waited.insert(t.code[k].operands[1].name);
        std::map<std::string, litmus::Operand> missing; // printed operand -> operand
        for (const litmus::Thread& other : test.threads) {
            if (other.id == t.id) continue;
            const auto& decodedOther = decodedThreads.at(other.id);
            for (std::size_t k = 0; k < other.code.size(); ++k)
                if (auto b = arrivedOn(other.code[k], decodedOther[k], barriers);
                    b && !waited.count(b->name)) {
                    const litmus::Operand mine = ownIndex(*b, loop);
                    missing.emplace(printOperand(mine), mine);
                }
        }
        const std::set<std::string> registers = flippedRegisters(t, code, loop);
        for (std::size_t at = loop.begin; at < loop.end; ++at) {
            if (!code[at]) continue;
            for (const auto& [text, barrier] : missing)
                for (const std::string& reg : registers) {
                    Strengthening s{Kind::MbarrierWait, t.id, static_cast<int>(at)};
                    s.copyThread = templ->first;
                    s.copyOf = templ->second;
                    s.parityRegister = reg;
                    s.barrier = barrier;
                    out.push_back(s);
                }
            if (touchesMemory(t.code[at])) break;
        }
    }
}

} // namespace

std::vector<Strengthening> strengthenings(const litmus::Test& test) {
    std::vector<Strengthening> out;
    const Scope spanned = scopeSpanned(test);
    std::map<int, std::vector<std::optional<Insn>>> decodedThreads;
    for (const litmus::Thread& t : test.threads)
        for (const auto& inst : t.code)
            decodedThreads[t.id].push_back(decoded(inst));
    for (const litmus::Thread& t : test.threads) {
        const std::vector<std::optional<Insn>>& code = decodedThreads[t.id];
        bool orderedBefore = false, tcgenBefore = false, genericBefore = false;
        // asynchronous operations of the thread not waited for yet, by the wait that would
        // complete them: cp.async, tcgen05.ld, tcgen05.st, committed bulk copies (whose
        // source a generic write would overwrite, whose writes a release would publish)
        int pending[4] = {0, 0, 0, 0};
        bool bulkUncommitted = false;
        for (std::size_t k = 0; k < code.size(); ++k) {
            if (!code[k]) continue;
            const Insn& i = *code[k];
            const Insn* prev = k > 0 && code[k - 1] ? &*code[k - 1] : nullptr;
            const Strengthening here{Kind::After, t.id, static_cast<int>(k)};
            auto add = [&](Kind kind) {
                Strengthening s = here;
                s.kind = kind;
                out.push_back(s);
            };
            const bool afterFence = prev && prev->is<Tcgen05Fence>();
            if (isTcgen05Op(i) && orderedBefore && !afterFence) add(Kind::After);
            if (ordersExecution(i) && tcgenBefore && !afterFence) add(Kind::Before);
            // fence.proxy.async: before an async-proxy access; after a wait or barrier (the
            // consumer's data came from the async proxy); before a release once the thread
            // read or wrote in the generic proxy (the released buffer is next written or read
            // in the async proxy: a consumer's reads before its empty arrive, a producer's
            // writes before its full arrive)
            const bool wait =
                prev && (prev->is<MbarrierWait>() || prev->is<BulkWait>() || prev->is<Barrier>());
            const bool release = i.is<MbarrierArrive>() || i.is<Barrier>() || releasable(i);
            if (!(prev && prev->is<ProxyFence>()) &&
                (usesAsyncProxy(i) || wait || (release && genericBefore)))
                add(Kind::Proxy);
            if (prev && genericAccess(*prev) && genericAccess(i)) add(Kind::Fence);
            if (acquirable(i)) add(Kind::Acquire);
            if (releasable(i)) add(Kind::Release);
            addWidenings(out, i, here, spanned);
            for (int w = 0; w < 3; ++w)
                if (pending[w] > 0) out.push_back({Kind::Wait, t.id, static_cast<int>(k), w});
            if (pending[3] > 0 && (i.is<St>() || i.is<Atom>()))
                out.push_back({Kind::Wait, t.id, static_cast<int>(k), 3});
            if (pending[3] > 0 && (i.is<MbarrierArrive>() || i.is<Barrier>()))
                out.push_back({Kind::Wait, t.id, static_cast<int>(k), 4});
            if (i.is<CpAsync>()) ++pending[0];
            if (const auto* bw = i.as<BulkWait>()) pending[bw->nonBulk ? 0 : 3] = 0;
            if (const auto* bc = i.as<BulkCopy>(); bc && !bc->viaMbarrier) bulkUncommitted = true;
            if (const auto* c = i.as<BulkCommit>(); c && !c->nonBulk && bulkUncommitted)
                ++pending[3], bulkUncommitted = false;
            if (i.is<Tcgen05Ld>()) ++pending[1];
            if (i.is<Tcgen05St>()) ++pending[2];
            if (const auto* tw = i.as<Tcgen05Wait>()) pending[tw->ld ? 1 : 2] = 0;
            orderedBefore = orderedBefore || ordersExecution(i);
            tcgenBefore = tcgenBefore || isTcgen05Op(i);
            genericBefore = genericBefore || genericAccess(i);
        }
        addMissingWaits(out, t, code);
        addUnguardedRepeats(out, t, code);
        addLoopWaits(out, test, t, code, decodedThreads);
    }
    // the two guesses at a missing wait may agree: one wait per place, barrier and parity
    std::vector<Strengthening> unique;
    std::set<std::tuple<int, int, std::string>> waits;
    for (const Strengthening& s : out) {
        if (s.kind == Kind::MbarrierWait &&
            !waits.insert({s.thread, s.index, waitIdentity(test, s)}).second)
            continue;
        unique.push_back(s);
    }
    return unique;
}

} // namespace ptxmc::ptx
