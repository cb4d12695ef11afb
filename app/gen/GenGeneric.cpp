// Generic-proxy instructions: ld/st/atom/red with every semantics and scope, fences, bar.sync.
#include "gen/Families.hpp"
#include "lower/Lowerer.hpp"
#include "ptx/Print.hpp"
#include "ptx/Tables.hpp"

#include <algorithm>

namespace ptxmc::gen {

namespace {

/** The state-space qualifier: optional for global and own shared memory (generic
 * addressing), .shared::cluster for a peer CTA's shared memory. */
ptx::StateSpace spaceQualifier(Draft& d, int l, int fromCta, int inst) {
    using S = ptx::StateSpace;
    if (d.loc(l).space == Space::Global) return d.rng().chance(55) ? S::Global : S::None;
    if (inst != fromCta) return S::SharedCluster;
    return d.rng().pick({S::SharedCta, S::SharedCta, S::Shared, S::SharedCluster, S::None});
}

const ptx::Type kU32{'u', 32}, kS32{'s', 32}, kB32{'b', 32};

std::vector<ptx::Type> typeSuffix(Rng& rng) {
    using T = std::vector<ptx::Type>;
    return rng.pick({T{kU32}, T{kU32}, T{kB32}, T{kS32}, T{}, T{}});
}

/** Dat3M's short spelling (`ld.weak r0, x`) is only used for global memory. */
std::string operandText(Draft& d, int l, int fromCta, int inst) {
    bool bare = d.loc(l).space == Space::Global && d.rng().chance(30);
    return d.addr(l, fromCta, inst, 0, !bare);
}

} // namespace

std::int64_t apply(const std::string& op, std::int64_t old, std::int64_t v) {
    if (op == "add") return old + v;
    if (op == "and") return old & v;
    if (op == "or") return old | v;
    if (op == "xor") return old ^ v;
    if (op == "max") return std::max(old, v);
    if (op == "min") return std::min(old, v);
    return v; // exch
}

std::string text(const ptx::Op& op, const std::string& operands) {
    return ptx::printOpcode(op) + (operands.empty() ? "" : " " + operands);
}

ptx::Scope pickScope(Rng& rng) {
    using S = ptx::Scope;
    return rng.pick({S::Cta, S::Cta, S::Cluster, S::Gpu, S::Gpu, S::Sys});
}

std::string load(Draft& d, int t, int l, int inst) {
    Rng& r = d.rng();
    using S = ptx::Sem;
    ptx::Ld ld;
    ld.sem = std::vector<S>{S::None, S::Weak, S::Relaxed, S::Acquire,
                            S::Volatile}[r.weighted({15, 25, 25, 25, 10})];
    if (ld.sem == S::Relaxed || ld.sem == S::Acquire) ld.scope = pickScope(r);
    const int c = d.ctaOf(t);
    const std::string reg = d.freshReg("r");
    const CellKey k = d.key(l, inst);
    // One random choice per statement: the order C++ evaluates operands of + is unspecified.
    ld.space = spaceQualifier(d, l, c, inst);
    ld.types = typeSuffix(r);
    const std::string operand = operandText(d, l, c, inst);
    d.emit(t, text(ld, reg + ", " + operand));
    d.define(t, reg, d.read(k));
    d.observe(t, reg, k);
    return reg;
}

bool store(Draft& d, int t, int l, int inst, std::optional<std::int64_t> value) {
    Rng& r = d.rng();
    using S = ptx::Sem;
    ptx::St st;
    st.sem = std::vector<S>{S::None, S::Weak, S::Relaxed, S::Release,
                            S::Volatile}[r.weighted({15, 25, 25, 25, 10})];
    if (st.sem == S::Relaxed || st.sem == S::Release) st.scope = pickScope(r);
    const int c = d.ctaOf(t);
    std::vector<std::int64_t> values;
    const std::string v = d.storedValue(t, value, values);
    st.space = spaceQualifier(d, l, c, inst);
    st.types = typeSuffix(r);
    const std::string operand = operandText(d, l, c, inst);
    d.emit(t, text(st, operand + ", " + v));
    d.write(d.key(l, inst), values);
    return true;
}

std::string atomic(Draft& d, int t, int l, int inst) {
    Rng& r = d.rng();
    const std::string op =
        r.pick({"add", "add", "exch", "cas", "cas", "and", "or", "xor", "max", "min"});
    using S = ptx::Sem;
    ptx::Atom at;
    at.op = *ptx::valueOf(ptx::kAtomOps, op);
    at.types = {op == "add" || op == "max" || op == "min" ? r.pick({kU32, kS32}) : kB32};
    at.sem = r.pick({S::None, S::Relaxed, S::Acquire, S::Release, S::AcqRel});
    // The scope may be omitted (.gpu by default, PTX ISA
    // #parallel-synchronization-and-communication-instructions-atom).
    at.scope = r.chance(85) ? pickScope(r) : ptx::Scope::None;
    const int c = d.ctaOf(t);
    const CellKey k = d.key(l, inst);
    const std::vector<std::int64_t> old = d.read(k);
    std::vector<std::int64_t> argValues;
    std::string args;
    std::vector<std::int64_t> written;
    if (op == "cas") {
        // Compare against a value the location may hold, so the cas can succeed.
        std::int64_t expected = r.chance(75) ? r.pick(old) : d.freshConst();
        std::int64_t desired = d.freshConst();
        args = std::to_string(expected) + ", " + std::to_string(desired);
        written = {desired};
    } else {
        std::string v =
            op == "exch" ? d.valueOperand(t, argValues, true) : std::to_string(r.range(1, 3));
        if (op != "exch") argValues = {std::stoll(v)};
        args = v;
        for (std::int64_t o : old)
            for (std::int64_t a : argValues)
                written.push_back(apply(op, o, a));
    }
    const std::string reg = d.freshReg("r");
    at.space = spaceQualifier(d, l, c, inst);
    d.emit(t, text(at, reg + ", " + d.addr(l, c, inst) + ", " + args));
    d.write(k, written);
    d.define(t, reg, old);
    d.observe(t, reg, k);
    return reg;
}

bool reduction(Draft& d, int t, int l, int inst) {
    Rng& r = d.rng();
    const std::string op = r.pick({"add", "add", "and", "or", "xor", "max", "min"});
    using S = ptx::Sem;
    using T = std::vector<ptx::Type>;
    ptx::Atom red;
    red.name = ptx::AtomName::Red;
    red.op = *ptx::valueOf(ptx::kAtomOps, op);
    red.types =
        op == "add" || op == "max" || op == "min" ? r.pick({T{kU32}, T{kS32}, T{}}) : T{kB32};
    red.sem = r.pick({S::None, S::Relaxed, S::Release, S::Release});
    red.scope = r.chance(85) ? pickScope(r) : ptx::Scope::None;
    const int c = d.ctaOf(t);
    const CellKey k = d.key(l, inst);
    const std::int64_t v = r.range(1, 3);
    std::vector<std::int64_t> written;
    for (std::int64_t o : d.read(k))
        written.push_back(apply(op, o, v));
    red.space = spaceQualifier(d, l, c, inst);
    d.emit(t, text(red, d.addr(l, c, inst) + ", " + std::to_string(v)));
    d.write(k, written);
    return true;
}

void memoryFence(Draft& d, int t) {
    Rng& r = d.rng();
    switch (r.weighted({4, 3, 1, 2, 2, 2})) {
    case 0:
        d.emit(t, text(ptx::Fence{ptx::Sem::Sc, pickScope(r)}, ""));
        break;
    case 1:
        d.emit(t, text(ptx::Fence{ptx::Sem::AcqRel, pickScope(r)}, ""));
        break;
    case 2: // no .sem: .acq_rel (PTX ISA
            // #parallel-synchronization-and-communication-instructions-membar)
        d.emit(t, text(ptx::Fence{ptx::Sem::None, pickScope(r)}, ""));
        break;
    case 3: // membar.gl is the GPU scope
        d.emit(t,
               text(ptx::Membar{r.pick({ptx::Scope::Cta, ptx::Scope::Gpu, ptx::Scope::Sys})}, ""));
        break;
    case 4: // the acquire and release fences of the 8.8 patterns (9.4 text)
        d.emit(t, text(ptx::Fence{ptx::Sem::Acquire, pickScope(r)}, ""));
        break;
    default:
        d.emit(t, text(ptx::Fence{ptx::Sem::Release, pickScope(r)}, ""));
        break;
    }
}

std::string runtimeGuard(Draft& d, int t) {
    std::vector<std::string> regs;
    for (const auto& [r, v] : d.th(t).regs)
        if (!d.th(t).tokens.count(r)) regs.push_back(r);
    if (regs.empty()) return "";
    const std::string src = d.rng().pick(regs);
    const std::string p = d.freshReg("p");
    bool negated = d.rng().chance(30);
    if (d.rng().chance(25)) // a choice both engines explore (nondet.pred), not a dependency
        d.emit(t, text(ptx::Nondet{}, p));
    else
        d.emit(t, text(ptx::Setp{ptx::CmpOp::Ne, kS32}, p + ", " + src + ", 0"));
    d.define(t, p, {0, 1});
    return "@" + std::string(negated ? "!" : "") + p + " ";
}

bool spin(Draft& d, int t) {
    int l = -1, inst = -1;
    if (!pickData(d, t, false, l, inst)) return false;
    const std::string label = d.freshReg("LC");
    d.emit(t, label + ":");
    const std::string r = load(d, t, l, inst);
    if (r.empty()) return false;
    // The loop unrolls to three loads (--unroll 2): each is an rf choice of its own.
    for (int more = 0; more < lower::LowerOptions{}.unroll; ++more)
        d.read(d.key(l, inst));
    const std::string p = d.freshReg("p");
    d.emit(t, text(ptx::Setp{ptx::CmpOp::Eq, kS32}, p + ", " + r + ", 0"));
    d.define(t, p, {0, 1});
    d.emit(t, "@" + p + " " + text(ptx::Bra{}, label));
    return true;
}

bool barrier(Draft& d, int cta, std::vector<int> participants) {
    std::sort(participants.begin(), participants.end());
    auto [id, count] = d.barrierFor(cta, participants);
    using B = ptx::Barrier; // {barrier spelling, .cta, .aligned}
    const B op =
        d.rng().pick({B{false, false, false}, B{false, false, false}, B{true, false, false},
                      B{true, true, false}, B{false, true, false}, B{true, false, true}});
    for (int t : participants)
        d.emit(t, text(op, std::to_string(id) + count));
    return true;
}

bool pickData(Draft& d, int t, bool forWrite, int& l, int& inst) {
    const int c = d.ctaOf(t);
    const bool global = d.rng().chance(55);
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (global == (attempt == 0)) {
            inst = -1;
            l = d.pickLoc(Space::Global, -1, forWrite);
        } else {
            inst = d.peer(c) >= 0 && d.rng().chance(25) ? d.peer(c) : c;
            l = d.pickLoc(Space::Shared, inst, forWrite);
        }
        if (l >= 0) return true;
    }
    return false;
}

namespace {

bool fragLoad(Draft& d) {
    int t = d.pickThread(), l = -1, inst = -1;
    return pickData(d, t, false, l, inst) && !load(d, t, l, inst).empty();
}

bool fragStore(Draft& d) {
    int t = d.pickThread(), l = -1, inst = -1;
    return pickData(d, t, true, l, inst) && store(d, t, l, inst);
}

bool fragAtomic(Draft& d) {
    int t = d.pickThread(), l = -1, inst = -1;
    return pickData(d, t, true, l, inst) && !atomic(d, t, l, inst).empty();
}

bool fragReduction(Draft& d) {
    int t = d.pickThread(), l = -1, inst = -1;
    return pickData(d, t, true, l, inst) && reduction(d, t, l, inst);
}

bool fragFence(Draft& d) {
    memoryFence(d, d.pickThread());
    return true;
}

/** add/sub/mul on a register an earlier instruction wrote: later stores may depend on it. */
bool fragArithmetic(Draft& d) {
    int t = d.pickThread();
    std::vector<std::string> regs;
    for (const auto& [r, v] : d.th(t).regs)
        if (!d.th(t).tokens.count(r)) regs.push_back(r);
    if (regs.empty()) return false;
    Rng& r = d.rng();
    const std::string src = r.pick(regs);
    using A = ptx::ArithOp;
    ptx::Arith arith;
    arith.op = r.pick({A::Add, A::Add, A::Sub, A::Mul});
    const std::int64_t k = arith.op == A::Mul ? r.range(0, 2) : r.range(0, 3);
    std::vector<std::int64_t> values;
    for (std::int64_t v : d.th(t).regs[src])
        values.push_back(arith.op == A::Add ? v + k : arith.op == A::Sub ? v - k : v * k);
    const std::string dst = d.freshReg("r");
    using T = std::vector<ptx::Type>;
    arith.types = r.pick({T{}, T{kU32}, T{kS32}});
    arith.lo = arith.op == A::Mul && !arith.types.empty(); // a typed mul names its mode (9.7.1.3)
    d.emit(t, text(arith, dst + ", " + src + ", " + std::to_string(k)));
    d.define(t, dst, values);
    d.observe(t, dst, std::nullopt);
    return true;
}

/**
 * A store guarded by a predicate on a register an earlier instruction wrote (often a load):
 * `setp.ne.s32 p, r, 0; @p st ...`. The store happens only in some executions, and its guard
 * is a dependency (or, a time in four, a nondet.pred choice): both engines' path conditions
 * are exercised.
 */
bool fragGuardedStore(Draft& d) {
    int t = d.pickThread(), l = -1, inst = -1;
    if (!pickData(d, t, true, l, inst)) return false;
    const std::string guard = runtimeGuard(d, t);
    if (guard.empty() || !store(d, t, l, inst)) return false;
    std::string& last = d.th(t).code.back();
    last = guard + last;
    return true;
}

/** bar.sync among all threads of a CTA or a subset given by a thread count. */
bool fragBarrier(Draft& d) {
    int cta = d.ctaOf(d.pickThread());
    std::vector<int> in = d.threadsIn(cta);
    if (in.size() < 2 && !d.rng().chance(20)) return false;
    std::vector<int> participants = in;
    if (in.size() >= 3 && d.rng().chance(40)) {
        participants.clear();
        for (int t : in)
            if (d.rng().chance(60)) participants.push_back(t);
        if (participants.size() < 2) return false;
    }
    return barrier(d, cta, participants);
}

/**
 * A spin on a loaded value, then bar.sync on the loop's exit path (the inter-CTA barrier shape
 * of Dat3M's XF-Barrier tests): the barrier runs in every execution the unrolling keeps.
 */
bool fragSpinThenBarrier(Draft& d) {
    int t = d.pickThread();
    int cta = d.ctaOf(t);
    std::vector<int> in = d.threadsIn(cta);
    if (in.size() < 2 && !d.rng().chance(20)) return false;
    return spin(d, t) && barrier(d, cta, in);
}

/** The threads of `cta`'s cluster, or none where the draft does not say which CTAs share it. */
std::vector<int> clusterThreads(const Draft& d, int cta) {
    std::vector<int> in = d.threadsIn(cta);
    if (d.peer(cta) >= 0) {
        for (int t : d.threadsIn(d.peer(cta)))
            in.push_back(t);
    } else if (static_cast<int>(in.size()) != d.threads()) {
        return {};
    }
    std::sort(in.begin(), in.end());
    return in;
}

/**
 * barrier.cluster.arrive (release, or .relaxed) then barrier.cluster.wait in every thread of the
 * cluster; before a relaxed arrive sometimes a release fence, the 9.4 text's "use memory fence
 * prior to arrive for relaxed barrier" ({BarrierCluster}), whose scope may miss the peer CTA.
 */
bool fragClusterBarrier(Draft& d) {
    Rng& r = d.rng();
    const std::vector<int> in = clusterThreads(d, d.ctaOf(d.pickThread()));
    if (in.size() < 2) return false;
    ptx::Barrier arrive;
    arrive.barrierSpelling = arrive.cluster = arrive.arrive = true;
    arrive.aligned = r.chance(50);
    arrive.sem = r.chance(50) ? ptx::Sem::Relaxed : ptx::Sem::None;
    ptx::Barrier wait;
    wait.barrierSpelling = wait.cluster = wait.wait = true;
    wait.aligned = arrive.aligned;
    for (int t : in) {
        if (arrive.sem == ptx::Sem::Relaxed && r.chance(60))
            d.emit(t, text(ptx::Fence{ptx::Sem::AcqRel,
                                      r.pick({ptx::Scope::Cta, ptx::Scope::Cluster})},
                           ""));
        d.emit(t, text(arrive, ""));
        d.emit(t, text(wait, ""));
    }
    return true;
}

} // namespace

std::vector<std::pair<Fragment, int>> genericFragments() {
    return {{fragLoad, 10},         {fragStore, 9},        {fragAtomic, 4},
            {fragReduction, 3},     {fragFence, 4},        {fragArithmetic, 5},
            {fragBarrier, 3},       {fragGuardedStore, 3}, {fragSpinThenBarrier, 1},
            {fragClusterBarrier, 1}};
}

bool exitThenBarrier(Draft& d) {
    const int x = d.pickThread();
    const int cta = d.ctaOf(x);
    for (const std::string& line : d.th(x).code)
        if (!line.empty() && (line.back() == ':' || line.find("bra") != std::string::npos))
            return false; // exit must end every path of the thread
    std::vector<int> others;
    for (int t : d.threadsIn(cta))
        if (t != x) others.push_back(t);
    if (others.empty()) return false;
    d.emit(x, text(ptx::Exit{d.rng().chance(25)}));
    const int id = d.barrierFor(cta, others, true).first;
    for (int t : others)
        d.emit(t, text(ptx::Barrier{}, std::to_string(id)));
    return true;
}

} // namespace ptxmc::gen
