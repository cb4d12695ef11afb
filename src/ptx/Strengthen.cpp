// Strengthenings over decoded instructions: where a fence could go, which access could acquire.
#include "ptx/Strengthen.hpp"

#include "ptx/Decode.hpp"
#include "ptx/Print.hpp"
#include "support/SourceLoc.hpp"

#include <algorithm>
#include <optional>

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

/** The fence or wait a strengthening inserts. */
Op inserted(const Strengthening& s) {
    switch (s.kind) {
    case Kind::Wait:
        if (s.waitFor == 0) return BulkWait{false, true, true};
        return Tcgen05Wait{s.waitFor == 1};
    case Kind::After:
        return Tcgen05Fence{false};
    case Kind::Before:
        return Tcgen05Fence{true};
    case Kind::Proxy:
        return ProxyFence{ProxyKind::Async, Space::None, Sem::None, Scope::None};
    default:
        return Fence{Sem::AcqRel, Scope::Gpu, false};
    }
}

/** `i` with .acquire or .release; a missing scope becomes .gpu (.cta for mbarrier ops). */
Insn strengthened(Insn i, Kind k) {
    const Sem sem = k == Kind::Acquire ? Sem::Acquire : Sem::Release;
    auto scoped = [](Scope& s, Scope dflt) {
        if (s == Scope::None) s = dflt;
    };
    if (auto* l = std::get_if<Ld>(&i.op)) l->sem = sem, scoped(l->scope, Scope::Gpu);
    if (auto* s = std::get_if<St>(&i.op)) s->sem = sem, scoped(s->scope, Scope::Gpu);
    if (auto* a = std::get_if<Atom>(&i.op)) a->sem = sem, scoped(a->scope, Scope::Gpu);
    if (auto* w = std::get_if<MbarrierWait>(&i.op)) w->sem = sem;
    if (auto* a = std::get_if<MbarrierArrive>(&i.op)) a->sem = sem;
    if (auto* b = std::get_if<Barrier>(&i.op)) b->sem = sem;
    return i;
}

const litmus::Thread* threadOf(const litmus::Test& test, int id) {
    for (const auto& t : test.threads)
        if (t.id == id) return &t;
    return nullptr;
}

} // namespace

std::vector<Strengthening> strengthenings(const litmus::Test& test) {
    std::vector<Strengthening> out;
    for (const litmus::Thread& t : test.threads) {
        std::vector<std::optional<Insn>> code;
        for (const auto& inst : t.code)
            code.push_back(decoded(inst));
        bool orderedBefore = false, tcgenBefore = false, genericWriteBefore = false;
        // asynchronous operations of the thread not waited for yet, by the wait that would
        int pending[3] = {0, 0, 0}; // cp.async, tcgen05.ld, tcgen05.st
        for (std::size_t k = 0; k < code.size(); ++k) {
            if (!code[k]) continue;
            const Insn& i = *code[k];
            const Insn* prev = k > 0 && code[k - 1] ? &*code[k - 1] : nullptr;
            auto add = [&](Kind kind) { out.push_back({kind, t.id, static_cast<int>(k)}); };
            const bool afterFence = prev && prev->is<Tcgen05Fence>();
            if (isTcgen05Op(i) && orderedBefore && !afterFence) add(Kind::After);
            if (ordersExecution(i) && tcgenBefore && !afterFence) add(Kind::Before);
            // fence.proxy.async: before an async-proxy access, and after a wait or barrier
            // (consumer side), or before a release (producer side) once the thread wrote
            const bool wait =
                prev && (prev->is<MbarrierWait>() || prev->is<BulkWait>() || prev->is<Barrier>());
            const bool release = i.is<MbarrierArrive>() || i.is<Barrier>() || releasable(i);
            if (!(prev && prev->is<ProxyFence>()) &&
                (usesAsyncProxy(i) || wait || (release && genericWriteBefore)))
                add(Kind::Proxy);
            if (prev && genericAccess(*prev) && genericAccess(i)) add(Kind::Fence);
            if (acquirable(i)) add(Kind::Acquire);
            if (releasable(i)) add(Kind::Release);
            for (int w = 0; w < 3; ++w)
                if (pending[w] > 0) out.push_back({Kind::Wait, t.id, static_cast<int>(k), w});
            if (i.is<CpAsync>()) ++pending[0];
            if (const auto* bw = i.as<BulkWait>(); bw && bw->nonBulk) pending[0] = 0;
            if (i.is<Tcgen05Ld>()) ++pending[1];
            if (i.is<Tcgen05St>()) ++pending[2];
            if (const auto* tw = i.as<Tcgen05Wait>()) pending[tw->ld ? 1 : 2] = 0;
            orderedBefore = orderedBefore || ordersExecution(i);
            tcgenBefore = tcgenBefore || isTcgen05Op(i);
            genericWriteBefore = genericWriteBefore || i.is<St>() || i.is<Atom>();
        }
    }
    return out;
}

litmus::Test applyStrengthening(const litmus::Test& test, const Strengthening& s) {
    litmus::Test out = test;
    auto t = std::find_if(out.threads.begin(), out.threads.end(),
                          [&](const litmus::Thread& th) { return th.id == s.thread; });
    if (t == out.threads.end() || s.index < 0 || s.index >= static_cast<int>(t->code.size()))
        throw InputError(SourceLoc{test.file, 1, 1}, "no instruction to strengthen there");
    auto index = static_cast<std::size_t>(s.index);
    if (s.kind == Kind::Acquire || s.kind == Kind::Release) {
        litmus::Instruction& inst = t->code[index];
        writeBack(strengthened(decode(inst), s.kind), inst); // the decoder's error if malformed
        return out;
    }
    litmus::Instruction fence;
    fence.loc = t->code[index].loc;
    writeBack(Insn{inserted(s), {}, fence.loc, ""}, fence);
    t->code.insert(t->code.begin() + static_cast<std::ptrdiff_t>(index), fence);
    return out;
}

std::string describe(const litmus::Test& test, const Strengthening& s) {
    const litmus::Thread* t = threadOf(test, s.thread);
    const litmus::Instruction& inst = t->code.at(static_cast<std::size_t>(s.index));
    const std::string at = "P" + std::to_string(s.thread) + "'s " + inst.opcode + " (line " +
                           std::to_string(inst.loc.line) + ")";
    switch (s.kind) {
    case Kind::Acquire:
        return at + " made .acquire";
    case Kind::Release:
        return at + " made .release";
    default:
        return printOpcode(inserted(s)) + " before " + at;
    }
}

} // namespace ptxmc::ptx
