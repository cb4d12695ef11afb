// Mutation operators over decoded instructions: which weakenings apply, and the weakened text.
#include "ptx/Mutation.hpp"

#include "ptx/Decode.hpp"
#include "ptx/Print.hpp"
#include "support/SourceLoc.hpp"

#include <algorithm>
#include <array>
#include <regex>

namespace ptxmc::ptx {

namespace {

using MutationKind = Mutation::Kind;

constexpr std::array<std::pair<MutationKind, const char*>, 6> kKindNames = {
    {{MutationKind::Drop, "drop"},
     {MutationKind::Relax, "relax"},
     {MutationKind::AcqRel, "acqrel"},
     {MutationKind::Cta, "cta"},
     {MutationKind::Read, "read"},
     {MutationKind::Plain, "plain"}}};

bool isFence(const Insn& i) {
    return i.is<Fence>() || i.is<Membar>() || i.is<ProxyFence>() || i.is<Tcgen05Fence>() ||
           i.is<WgmmaFence>();
}

/** Does any operand, at any depth, name register `reg`? */
bool names(const litmus::Operand& o, const std::string& reg) {
    if (o.kind == litmus::Operand::Kind::Name && o.name == reg) return true;
    return std::any_of(o.elements.begin(), o.elements.end(),
                       [&](const litmus::Operand& e) { return names(e, reg); });
}

bool mentions(const litmus::Prop& p, int thread, const std::string& reg) {
    auto isReg = [&](const litmus::Ref& r) {
        return r.kind == litmus::Ref::Kind::Register && r.thread == thread && r.name == reg;
    };
    if (p.kind == litmus::Prop::Kind::Eq || p.kind == litmus::Prop::Kind::Ne)
        if (isReg(p.lhs) || (p.rhsRef && isReg(*p.rhsRef))) return true;
    return std::any_of(p.args.begin(), p.args.end(),
                       [&](const auto& a) { return mentions(*a, thread, reg); });
}

/**
 * May the instruction be removed without leaving a register undefined? Its result (operand 0
 * of an mbarrier wait or arrive) must be `_` or read by nothing after it: no later operand of
 * the thread, no final condition, no observed location names it.
 */
bool resultUnused(const litmus::Test& test, const litmus::Thread& t, std::size_t index) {
    const litmus::Instruction& inst = t.code[index];
    if (inst.operands.empty() || inst.operands[0].kind != litmus::Operand::Kind::Name) return true;
    const std::string& reg = inst.operands[0].name;
    for (std::size_t k = index + 1; k < t.code.size(); ++k) {
        if (t.code[k].guard && t.code[k].guard->reg == reg) return false;
        for (const litmus::Operand& o : t.code[k].operands)
            if (names(o, reg)) return false;
    }
    for (const litmus::Ref& r : test.observed)
        if (r.kind == litmus::Ref::Kind::Register && r.thread == t.id && r.name == reg)
            return false;
    return !(test.condition && test.condition->prop && mentions(*test.condition->prop, t.id, reg));
}

bool isSinkWait(const Insn& i) {
    if (i.is<MbarrierWait>())
        return !i.operands.empty() && i.operands[0].kind == litmus::Operand::Kind::Sink;
    return i.is<Tcgen05Wait>() || i.is<BulkWait>() || i.is<WgmmaWait>();
}

/** Removing it is a drop: fences, waits, arrives, transaction counts, commits, barriers. */
bool droppable(const Insn& i, bool unusedResult) {
    if (isFence(i) || i.is<Tcgen05Wait>() || i.is<BulkWait>() || i.is<BulkCommit>() ||
        i.is<Tcgen05Commit>() || i.is<WgmmaWait>() || i.is<WgmmaCommit>() ||
        (i.is<Barrier>() && !i.as<Barrier>()->cluster) || i.is<MbarrierTx>() ||
        i.is<CpAsyncArrive>())
        return true;
    return (i.is<MbarrierWait>() || i.is<MbarrierArrive>()) && unusedResult;
}

bool isOrdering(Sem s) {
    return s == Sem::Acquire || s == Sem::Release || s == Sem::AcqRel;
}

/** Does relaxing change anything? (.release/.acquire/.acq_rel, or an mbarrier default.) */
bool relaxable(const Insn& i) {
    if (const auto* l = i.as<Ld>()) return isOrdering(l->sem);
    if (const auto* s = i.as<St>()) return isOrdering(s->sem);
    if (const auto* a = i.as<Atom>()) return isOrdering(a->sem);
    if (const auto* a = i.as<MbarrierArrive>()) return a->sem != Sem::Relaxed;
    if (const auto* w = i.as<MbarrierWait>()) return w->sem != Sem::Relaxed;
    if (const auto* b = i.as<Barrier>()) return b->cluster && b->arrive && b->sem == Sem::Release;
    return false;
}

bool wide(Scope s) {
    return s == Scope::Gpu || s == Scope::Sys || s == Scope::Cluster;
}

/** The scope a narrowing rewrites, or null. */
Scope* scopeOf(Op& op) {
    return std::visit(
        [](auto& x) -> Scope* {
            if constexpr (requires { x.scope; })
                return &x.scope;
            else
                return nullptr;
        },
        op);
}

bool narrowable(Insn i) {
    // forms whose scope the syntax fixes at .cluster ({Membar}): fence.mbarrier_init, the
    // .sync_restrict fences and their proxy forms ("the .scope must be specified as .cluster")
    if (const auto* f = i.as<Fence>();
        f && (f->mbarrierInit || f->syncRestrict != StateSpace::None))
        return false;
    if (const auto* f = i.as<ProxyFence>(); f && f->syncRestrict != StateSpace::None) return false;
    Scope* s = scopeOf(i.op);
    return s && wide(*s);
}

bool readable(const Insn& i) {
    const auto* w = i.as<BulkWait>();
    return w && !w->read && !w->nonBulk; // cp.async.wait_group has no .read
}

std::vector<MutationKind> weakeningsOf(const Insn& i, bool unusedResult) {
    std::vector<MutationKind> out;
    if (droppable(i, unusedResult)) out.push_back(MutationKind::Drop);
    if (relaxable(i)) out.push_back(MutationKind::Relax);
    if (const auto* f = i.as<Fence>(); f && f->sem == Sem::Sc) out.push_back(MutationKind::AcqRel);
    if (narrowable(i)) out.push_back(MutationKind::Cta);
    if (readable(i)) out.push_back(MutationKind::Read);
    if (const auto* a = i.as<MbarrierArrive>(); a && a->expectTx)
        out.push_back(MutationKind::Plain);
    return out;
}

/**
 * The decoded instruction, or nothing for a label or text the checker will reject anyway.
 * Mutations rewrite litmus source on purpose (a mutant is printed and read back as a litmus
 * file, and generated for hardware from that text), so they decode the cell they rewrite.
 */
std::optional<Insn> tryDecode(const litmus::Instruction& inst) {
    if (inst.label) return std::nullopt;
    try {
        return decode(inst);
    } catch (const InputError&) {
        return std::nullopt; // checking the test itself reports the error, with its position
    }
}

void weaken(Insn& i, MutationKind k) {
    switch (k) {
    case MutationKind::Relax:
        std::visit(
            [](auto& x) {
                if constexpr (requires { x.sem; }) x.sem = Sem::Relaxed;
            },
            i.op);
        // .relaxed on an mbarrier operation needs its scope written (ptxas rejects it bare);
        // .cta is the default scope, so the mutant means what it meant
        if (auto* a = std::get_if<MbarrierArrive>(&i.op); a && a->scope == Scope::None)
            a->scope = Scope::Cta;
        if (auto* w = std::get_if<MbarrierWait>(&i.op); w && w->scope == Scope::None)
            w->scope = Scope::Cta;
        break;
    case MutationKind::AcqRel:
        std::get<Fence>(i.op).sem = Sem::AcqRel;
        break;
    case MutationKind::Cta:
        *scopeOf(i.op) = Scope::Cta;
        break;
    case MutationKind::Read:
        std::get<BulkWait>(i.op).read = true;
        break;
    case MutationKind::Plain:
        std::get<MbarrierArrive>(i.op).expectTx = false;
        i.operands.pop_back(); // the transaction count; a plain arrive's count would mean arrivals
        break;
    case MutationKind::Drop:
        break;
    }
}

/** Is `inst` a bar.sync / barrier.sync on the barrier `id` names? */
bool joinsBarrier(const litmus::Instruction& inst, const litmus::Operand& id) {
    auto i = tryDecode(inst);
    if (!i || !i->is<Barrier>() || i->operands.empty()) return false;
    const litmus::Operand& o = i->operands[0];
    return o.kind == id.kind && o.name == id.name && o.value == id.value;
}

/**
 * Drops the barrier instance that `t.code[index]` joins from every thread of its CTA: the n-th
 * bar.sync on that barrier in each thread. Dropping one participant only deadlocks the others,
 * which says nothing about whether the barrier is needed.
 */
void dropBarrierInstance(litmus::Test& test, const litmus::Thread& t, std::size_t index) {
    const litmus::Operand id = t.code[index].operands.at(0);
    auto nth = std::count_if(t.code.begin(), t.code.begin() + static_cast<long>(index),
                             [&](const litmus::Instruction& i) { return joinsBarrier(i, id); });
    int cta = t.cta;
    for (litmus::Thread& other : test.threads) {
        if (other.cta != cta) continue;
        long seen = 0;
        auto hit =
            std::find_if(other.code.begin(), other.code.end(), [&](const litmus::Instruction& i) {
                return joinsBarrier(i, id) && seen++ == nth;
            });
        if (hit != other.code.end()) other.code.erase(hit);
    }
}

std::string kindList(const std::vector<MutationKind>& ks) {
    std::string s;
    for (MutationKind k : ks)
        s += (s.empty() ? "" : ", ") + kindName(k);
    return s.empty() ? "none" : s;
}

} // namespace

std::string kindName(MutationKind k) {
    for (const auto& [kind, name] : kKindNames)
        if (kind == k) return name;
    return "drop";
}

std::string toString(const Mutation& m) {
    return kindName(m.kind) + ":P" + std::to_string(m.thread) + ":" + std::to_string(m.index);
}

std::optional<Mutation> parseMutation(const std::string& text) {
    static const std::regex re(R"(^([a-z]+):P([0-9]{1,6}):([0-9]{1,6})$)");
    std::smatch m;
    if (!std::regex_match(text, m, re)) return std::nullopt;
    for (const auto& [kind, name] : kKindNames)
        if (m[1] == name) return Mutation{kind, std::stoi(m[2]), std::stoi(m[3])};
    return std::nullopt;
}

std::vector<MutationKind> weakenings(const litmus::Test& test, const litmus::Thread& thread,
                                     std::size_t index) {
    auto i = tryDecode(thread.code.at(index));
    return i ? weakeningsOf(*i, resultUnused(test, thread, index)) : std::vector<MutationKind>{};
}

litmus::Test applyMutation(const litmus::Test& test, const Mutation& m) {
    litmus::Test out = test;
    SourceLoc where{test.file, 1, 1};
    auto fail = [&](const std::string& why) {
        throw InputError(where, "mutation " + toString(m) + ": " + why);
    };
    auto t = std::find_if(out.threads.begin(), out.threads.end(),
                          [&](const litmus::Thread& th) { return th.id == m.thread; });
    if (t == out.threads.end()) fail("no thread P" + std::to_string(m.thread));
    if (m.index < 0 || m.index >= static_cast<int>(t->code.size()))
        fail("P" + std::to_string(m.thread) + " has no instruction " + std::to_string(m.index));
    auto index = static_cast<std::size_t>(m.index);
    litmus::Instruction& inst = t->code[index];
    where = inst.loc;
    const std::optional<Insn> decoded = tryDecode(inst);
    auto kinds = decoded ? weakeningsOf(*decoded, resultUnused(test, *t, index))
                         : std::vector<MutationKind>{};
    if (std::find(kinds.begin(), kinds.end(), m.kind) == kinds.end())
        fail("'" + inst.opcode + "' cannot be weakened by " + kindName(m.kind) +
             " (its weakenings: " + kindList(kinds) + ")");
    if (m.kind == MutationKind::Drop && decoded->is<Barrier>()) {
        dropBarrierInstance(out, *t, index);
    } else if (m.kind == MutationKind::Drop) {
        t->code.erase(t->code.begin() + m.index);
    } else {
        Insn i = *decoded;
        weaken(i, m.kind);
        writeBack(i, inst);
    }
    out.name = test.name + "~" + toString(m);
    return out;
}

std::vector<Mutation> allMutations(const litmus::Test& test) {
    std::vector<Mutation> out;
    for (const auto& t : test.threads)
        for (std::size_t k = 0; k < t.code.size(); ++k)
            for (MutationKind kind : weakenings(test, t, k))
                out.push_back({kind, t.id, static_cast<int>(k)});
    return out;
}

std::vector<Mutation> hardwareMutations(const litmus::Test& test) {
    std::vector<Mutation> drops, relaxes, reads, ctas, waits;
    for (const auto& t : test.threads)
        for (std::size_t k = 0; k < t.code.size(); ++k) {
            auto i = tryDecode(t.code[k]);
            if (!i) continue;
            Mutation m{MutationKind::Drop, t.id, static_cast<int>(k)};
            auto add = [&m](std::vector<Mutation>& to, MutationKind kind) {
                m.kind = kind;
                to.push_back(m);
            };
            if (isFence(*i)) add(drops, MutationKind::Drop);
            if (relaxable(*i)) add(relaxes, MutationKind::Relax);
            if (readable(*i)) add(reads, MutationKind::Read);
            if (narrowable(*i) && !i->is<Membar>()) add(ctas, MutationKind::Cta);
            if (isSinkWait(*i)) add(waits, MutationKind::Drop);
        }
    std::vector<Mutation> all;
    for (auto* v : {&drops, &relaxes, &reads, &ctas, &waits})
        all.insert(all.end(), v->begin(), v->end());
    return all;
}

} // namespace ptxmc::ptx
