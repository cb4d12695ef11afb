// Generic-proxy instructions: ld/st/atom/red, fences, barriers, proxy accesses, arithmetic.
#include "lower/Lowerer.hpp"

namespace ptxmc::lower {

using ir::Sem;
using ir::Value;

ir::Scope parseScope(const std::string& s) {
    if (s == "cta") return ir::Scope::Cta;
    if (s == "cluster") return ir::Scope::Cluster;
    if (s == "gpu" || s == "gl") return ir::Scope::Gpu;
    if (s == "sys") return ir::Scope::Sys;
    return ir::Scope::None;
}

const char* scopeTag(ir::Scope s) {
    switch (s) {
    case ir::Scope::Cta:
        return "CTA";
    case ir::Scope::Cluster:
        return "CLUSTER";
    case ir::Scope::Gpu:
        return "GPU";
    case ir::Scope::Sys:
        return "SYS";
    case ir::Scope::None:
        break;
    }
    return nullptr;
}

const char* semTag(Sem s) {
    switch (s) {
    case Sem::Weak:
        return "Weak";
    case Sem::Relaxed:
        return "Relaxed";
    case Sem::Acquire:
        return "Acquire";
    case Sem::Release:
        return "Release";
    case Sem::AcqRel:
        return "AcqRel";
    case Sem::Sc:
        return "SC";
    case Sem::None:
        break;
    }
    return nullptr;
}

namespace {

void setOrdering(ir::Event& e, Sem sem, ir::Scope scope) {
    e.sem = sem;
    e.scope = scope;
    if (const char* t = semTag(sem)) e.tags.insert(t);
    if (const char* t = scopeTag(scope)) e.tags.insert(t);
}

/** Semantics and scope qualifiers of a memory instruction; `dflt` when none is written. */
std::pair<Sem, ir::Scope> takeOrdering(Lowerer& l, Qualifiers& q, Sem dflt) {
    Sem sem = dflt;
    ir::Scope scope = ir::Scope::None;
    if (auto s = q.takeOneOf({"weak", "relaxed", "acquire", "release", "acq_rel", "volatile"})) {
        if (*s == "weak")
            sem = Sem::Weak;
        else if (*s == "relaxed")
            sem = Sem::Relaxed;
        else if (*s == "acquire")
            sem = Sem::Acquire;
        else if (*s == "release")
            sem = Sem::Release;
        else if (*s == "acq_rel")
            sem = Sem::AcqRel;
        else {
            sem = Sem::Relaxed; // .volatile is .relaxed.sys (PTX ISA 8.4)
            scope = ir::Scope::Sys;
        }
    }
    if (auto s = q.takeOneOf({"cta", "cluster", "gpu", "sys"})) scope = parseScope(*s);
    if (sem != Sem::Weak && sem != Sem::None && scope == ir::Scope::None) {
        if (dflt == Sem::Weak && sem != Sem::Weak)
            l.fail(l.inst().loc,
                   "'" + l.inst().opcode + "' needs a scope (.cta, .cluster, .gpu or .sys)");
        scope = ir::Scope::Gpu; // atom/red default scope is .gpu
    }
    if (sem == Sem::Weak && scope != ir::Scope::None)
        l.fail(l.inst().loc, "a .weak access has no scope");
    return {sem, scope};
}

/** The state-space qualifier, and whether it reaches the cluster (.shared::cluster). */
struct SpaceQualifier {
    std::optional<ir::Space> space;
    bool cluster = false;
};

SpaceQualifier takeSpace(Qualifiers& q) {
    if (q.take("global")) return {ir::Space::Global, false};
    if (auto s = q.takeOneOf({"shared", "shared::cta", "shared::cluster"}))
        return {ir::Space::Shared, *s == "shared::cluster"};
    return {};
}

/** A generic access: not to tensor memory, and another CTA's memory only via the cluster. */
Address genericAddress(Lowerer& l, const litmus::Operand& op, const SpaceQualifier& space) {
    Address a = l.address(op, space.space);
    auto memSpace = l.program().locations[static_cast<std::size_t>(a.location)].space;
    if (memSpace == ir::Space::Tmem)
        l.fail(op.loc, "'" + op.name + "' is tensor memory: only tcgen05 instructions access it");
    if (memSpace == ir::Space::Mbarrier)
        l.fail(op.loc, "'" + op.name + "' is an mbarrier: use mbarrier instructions");
    // Dat3M's short spelling has no state space: a remote instance then needs one.
    l.checkReach(a, op, space.cluster);
    return a;
}

ir::Proxy proxyOf(const std::string& op) {
    if (op == "sust" || op == "suld" || op == "suatom" || op == "sured") return ir::Proxy::Surface;
    if (op == "tld") return ir::Proxy::Texture;
    if (op == "cold" || op == "ldc") return ir::Proxy::Constant;
    return ir::Proxy::Generic;
}

void lowerLoad(Lowerer& l, Qualifiers& q, ir::Proxy proxy) {
    auto [sem, scope] = takeOrdering(l, q, Sem::Weak);
    if (sem == Sem::Release || sem == Sem::AcqRel)
        l.fail(l.inst().loc, "a load cannot be .release");
    auto space = takeSpace(q);
    q.takeTypes();
    q.finish();
    l.expectOperands(2);
    const auto& src = l.operand(1);
    if (src.kind == litmus::Operand::Kind::Integer) { // Dat3M's `ld.weak r0, 1`
        l.define(l.operand(0), Value::makeConst(src.value));
        return;
    }
    Address a = genericAddress(l, src, space);
    ir::Event& e = l.issue({"R"});
    setOrdering(e, sem, scope);
    l.access(e, a, proxy);
    l.define(l.operand(0), Value::readOf(e.id));
}

void lowerStore(Lowerer& l, Qualifiers& q, ir::Proxy proxy) {
    auto [sem, scope] = takeOrdering(l, q, Sem::Weak);
    if (sem == Sem::Acquire || sem == Sem::AcqRel)
        l.fail(l.inst().loc, "a store cannot be .acquire");
    auto space = takeSpace(q);
    q.takeTypes();
    q.finish();
    l.expectOperands(2);
    Address a = genericAddress(l, l.operand(0), space);
    ir::ValuePtr v = l.value(l.operand(1));
    ir::Event& e = l.issue({"W"});
    setOrdering(e, sem, scope);
    l.access(e, a, proxy);
    e.written = v;
}

ir::Value::Op atomOp(Lowerer& l, const std::string& op) {
    if (op == "add") return Value::Op::Add;
    if (op == "and") return Value::Op::And;
    if (op == "or") return Value::Op::Or;
    if (op == "xor") return Value::Op::Xor;
    if (op == "max") return Value::Op::Max;
    if (op == "min") return Value::Op::Min;
    if (op == "sub") return Value::Op::Sub;
    l.fail(l.inst().loc, "unsupported atomic operation '." + op + "'");
}

/** atom (returns the old value) and red (no result): a read and a write joined by rmw. */
void lowerAtomic(Lowerer& l, Qualifiers& q, bool returns, ir::Proxy proxy) {
    auto [sem, scope] = takeOrdering(l, q, Sem::Relaxed);
    if (sem == Sem::Weak) l.fail(l.inst().loc, "atomics cannot be .weak");
    if (!returns && (sem == Sem::Acquire || sem == Sem::AcqRel))
        l.fail(l.inst().loc, "red cannot be .acquire (PTX ISA 9.7.13.6)");
    auto space = takeSpace(q);
    auto op =
        q.takeOneOf({"add", "and", "or", "xor", "max", "min", "exch", "cas", "sub", "inc", "dec"});
    if (!op) l.fail(l.inst().loc, "missing atomic operation (.add, .exch, .cas, ...)");
    if (*op == "inc" || *op == "dec") l.fail(l.inst().loc, "atomic .inc/.dec are not supported");
    q.takeTypes();
    q.finish();
    std::size_t first = returns ? 1 : 0;
    bool cas = *op == "cas";
    l.expectOperands(first + (cas ? 3 : 2));
    Address a = genericAddress(l, l.operand(first), space);
    ir::ValuePtr arg = l.value(l.operand(first + 1));
    ir::ValuePtr casNew = cas ? l.value(l.operand(first + 2)) : nullptr;
    Sem rsem = (sem == Sem::Acquire || sem == Sem::AcqRel) ? Sem::Acquire : Sem::Relaxed;
    Sem wsem = (sem == Sem::Release || sem == Sem::AcqRel) ? Sem::Release : Sem::Relaxed;
    ir::Event& r = l.issue({"R", "RMW"});
    setOrdering(r, rsem, scope);
    l.access(r, a, proxy);
    int rid = r.id;
    ir::Event& w = l.issue({"W", "RMW"});
    setOrdering(w, wsem, scope);
    l.access(w, a, proxy);
    ir::ValuePtr old = Value::readOf(rid);
    if (*op == "exch") {
        w.written = arg;
    } else if (cas) {
        w.written = casNew;
        w.guard = Value::make(Value::Op::Eq, {old, arg}); // a failed cas does not write
    } else {
        w.written = Value::make(atomOp(l, *op), {old, arg});
    }
    if (returns) l.define(l.operand(0), old);
}

void lowerFence(Lowerer& l, Qualifiers& q, const std::string& name) {
    if (name == "membar") {
        auto s = q.takeOneOf({"cta", "gl", "sys"});
        if (!s) l.fail(l.inst().loc, "membar needs .cta, .gl or .sys");
        q.finish();
        l.expectOperands(0);
        ir::Event& e = l.issue({"F"});
        setOrdering(e, Sem::Sc, parseScope(*s));
        return;
    }
    if (q.take("proxy")) {
        ir::Event& e = l.issue({});
        if (q.take("alias")) {
            e.tags.insert("ALIASF");
        } else if (q.take("async")) {
            e.tags.insert("PF");
            e.fenceProxies = {ir::Proxy::Async};
            // .shared::cta covers the executing CTA's shared memory, .shared::cluster the
            // cluster's; a bare .shared means .shared::cta (PTX ISA 5.1.7, 9.7.13.4).
            if (q.take("global"))
                e.fenceWindow = ir::FenceWindow::Global;
            else if (q.takeOneOf({"shared::cta", "shared"}))
                e.fenceWindow = ir::FenceWindow::SharedCta;
            else if (q.take("shared::cluster"))
                e.fenceWindow = ir::FenceWindow::SharedCluster;
        } else if (auto p = q.takeOneOf({"surface", "texture", "constant"})) {
            e.tags.insert("PF");
            e.fenceProxies = {*p == "surface"   ? ir::Proxy::Surface
                              : *p == "texture" ? ir::Proxy::Texture
                                                : ir::Proxy::Constant};
        } else {
            l.fail(l.inst().loc, "unsupported proxy fence '" + l.inst().opcode + "'");
        }
        q.finish();
        l.expectOperands(0);
        return;
    }
    auto sem = q.takeOneOf({"sc", "acq_rel"});
    auto scope = q.takeOneOf({"cta", "cluster", "gpu", "sys"});
    if (!scope) l.fail(l.inst().loc, "a fence needs a scope (.cta, .cluster, .gpu or .sys)");
    q.finish();
    l.expectOperands(0);
    ir::Event& e = l.issue({"F"});
    // fence without .sem is fence.acq_rel (PTX ISA 9.7.13.4)
    setOrdering(e, sem && *sem == "sc" ? Sem::Sc : Sem::AcqRel, parseScope(*scope));
}

void lowerBarrier(Lowerer& l, Qualifiers& q) {
    q.take("cta");
    q.take("aligned");
    if (!q.take("sync")) l.fail(l.inst().loc, "only bar.sync / barrier.sync are supported");
    q.finish();
    if (l.inst().operands.empty() || l.inst().operands.size() > 2)
        l.fail(l.inst().loc, "bar.sync takes a barrier number and an optional thread count");
    const auto& id = l.operand(0);
    if (id.kind != litmus::Operand::Kind::Integer || id.value < 0 || id.value > 15)
        l.fail(id.loc, "barrier number must be an integer in [0, 15]");
    // A litmus thread stands for a warp: a thread count of 32*k means k litmus threads.
    int warps = 0;
    if (l.inst().operands.size() == 2) {
        const auto& count = l.operand(1);
        if (count.kind != litmus::Operand::Kind::Integer || count.value <= 0 ||
            count.value % 32 != 0 || count.value > 1024)
            l.fail(count.loc, "the thread count must be a positive multiple of 32 (one litmus "
                              "thread per warp), at most 1024");
        warps = static_cast<int>(count.value / 32);
    }
    int instance = 0;
    for (int ev : l.threadInfo().events) {
        const auto& e = l.program().events[static_cast<std::size_t>(ev)];
        if (e.has("BAR_WAIT") && e.barrierId == id.value) ++instance;
    }
    // A barrier is an arrival and a completion: every participant's arrival precedes every
    // participant's completion (PTX ISA 9.7.13.1), which two events per thread express.
    for (const char* part : {"BAR_ARRIVE", "BAR_WAIT"}) {
        ir::Event& e = l.issue({"BAR", part});
        e.barrierId = static_cast<int>(id.value);
        e.barrierInstance = instance;
        e.barrierWarps = warps;
        e.scope = ir::Scope::Cta;
        e.tags.insert("CTA");
        if (std::string(part) == "BAR_WAIT") {
            e.tags.insert("BLOCKING");
            e.blocking = true;
        }
    }
}

void lowerArithmetic(Lowerer& l, Qualifiers& q, const std::string& name) {
    if (name == "mul") q.take("lo"); // the low 32 bits: what 32-bit registers keep anyway
    q.takeTypes();
    q.finish();
    l.expectOperands(3);
    Value::Op op = name == "add" ? Value::Op::Add : name == "sub" ? Value::Op::Sub : Value::Op::Mul;
    l.define(l.operand(0), Value::make(op, {l.value(l.operand(1)), l.value(l.operand(2))}));
}

} // namespace

bool lowerGeneric(Lowerer& l) {
    const auto& parts = l.inst().parts;
    const std::string& name = parts[0];
    Qualifiers q(l.inst(), 1);
    if (name == "ld" || name == "suld" || name == "tld" || name == "cold" || name == "ldc") {
        lowerLoad(l, q, proxyOf(name));
    } else if (name == "st" || name == "sust") {
        lowerStore(l, q, proxyOf(name));
    } else if (name == "atom" || name == "suatom") {
        lowerAtomic(l, q, true, proxyOf(name));
    } else if (name == "red" || name == "sured") {
        lowerAtomic(l, q, false, proxyOf(name));
    } else if (name == "fence" || name == "membar") {
        lowerFence(l, q, name);
    } else if (name == "bar" || name == "barrier") {
        lowerBarrier(l, q);
    } else if (name == "add" || name == "sub" || name == "mul") {
        lowerArithmetic(l, q, name);
    } else {
        return false;
    }
    return true;
}

} // namespace ptxmc::lower
