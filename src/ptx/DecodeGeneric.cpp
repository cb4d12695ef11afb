// Decoding of the generic-proxy families: ld/st/atom/red, fences, barriers, arithmetic.
#include "ptx/DecodeDetail.hpp"

#include <algorithm>
#include <iterator>

namespace ptxmc::ptx::detail {

namespace {

constexpr std::initializer_list<Scope> kAllScopes = {Scope::Cta, Scope::Cluster, Scope::Gpu,
                                                     Scope::Sys};

/** Semantics and scope as written; rejects what no access may spell. `dflt`: see takeOrdering. */
std::pair<Sem, Scope> takeOrdering(Decoder& d, ir::Sem dflt, ir::Sem& effective) {
    Sem sem = d.takeRow(kMemorySems).value_or(Sem::None);
    Scope scope = d.takeScope(kAllScopes);
    Ordering o = effectiveOrdering(sem, scope, dflt);
    bool hadScope = scope != Scope::None || sem == Sem::Volatile;
    if (o.sem != ir::Sem::Weak && o.sem != ir::Sem::None && !hadScope && dflt == ir::Sem::Weak)
        d.fail("'" + d.inst.opcode + "' needs a scope (.cta, .cluster, .gpu or .sys)");
    if (o.sem == ir::Sem::Weak && hadScope) d.fail("a .weak access has no scope");
    effective = o.sem;
    return {sem, scope};
}

StateSpace takeSpace(Decoder& d) {
    if (d.q.take("global")) return StateSpace::Global;
    return d
        .takeRow(std::array<Row<StateSpace>, 3>{{{StateSpace::Shared, "shared"},
                                                 {StateSpace::SharedCta, "shared::cta"},
                                                 {StateSpace::SharedCluster, "shared::cluster"}}})
        .value_or(StateSpace::None);
}

Ld decodeLd(Decoder& d, LdName name) {
    Ld ld{name, Sem::None, Scope::None, StateSpace::None, {}};
    ir::Sem sem;
    std::tie(ld.sem, ld.scope) = takeOrdering(d, ir::Sem::Weak, sem);
    if (sem == ir::Sem::Release || sem == ir::Sem::AcqRel) d.fail("a load cannot be .release");
    ld.space = takeSpace(d);
    ld.types = d.takeTypes();
    // .b128 (a try_cancel response's "16-byte register", {ClcTryCancel}): the location's word
    if (name == LdName::Ld && ld.types.empty() && d.q.take("b128")) ld.types = {Type{'b', 128}};
    d.q.finish();
    return ld;
}

St decodeStAsync(Decoder& d) {
    St st{StName::St, Sem::None, Scope::None, StateSpace::None, {}};
    st.async = true;
    const std::string where = " (" + cite(Sec::StAsync) + ")";
    st.mmio = d.q.take("mmio");
    if (auto s = d.q.takeOneOf({"weak", "release"}))
        st.sem = *s == "weak" ? Sem::Weak : Sem::Release;
    if (st.sem == Sem::Release) {
        // st.async{.mmio}.release.scope{.global}.type [a], b (9.4): "a release store to global
        // memory ... a strong memory operation with .release semantics at the scope specified by
        // .scope"; .scope = {.gpu, .sys}, .ss = {.global}, no completion mechanism.
        st.scope = d.takeScope({Scope::Gpu, Scope::Sys});
        if (st.scope == Scope::None) d.fail("st.async.release needs scope .gpu or .sys" + where);
        if (st.mmio && st.scope != Scope::Sys)
            d.fail("st.async: \"If .mmio is specified, .scope must be .sys\"" + where);
        if (d.q.take("shared::cluster"))
            d.fail("st.async.release: \"If .ss is specified, it must be .global\"" + where);
        if (d.q.take("global")) st.space = StateSpace::Global;
        if (d.q.take("mbarrier::complete_tx::bytes"))
            d.fail("st.async.release has no completion mechanism" + where);
        if (d.q.takeOneOf({"v2", "v4"}))
            d.fail("st.async.release has no .vec: its syntax is "
                   "st.async{.mmio}.sem.scope{.ss}.type [a], b" +
                   where);
        // .type = {.b8, .b16, .b32, .b64, .u8, ..., .s64, .f32, .f64} (no .f16, no .b128)
        st.types = d.takeTypes();
        if (st.types.size() != 1 || st.types[0].bits < 8 || st.types[0].bits > 64 ||
            (st.types[0].kind == 'f' && st.types[0].bits < 32))
            d.fail("st.async.release stores one 8-, 16-, 32- or 64-bit integer or bit-size "
                   "value, or an .f32 or .f64" +
                   where);
        d.q.finish();
        return st;
    }
    if (st.mmio) d.fail("st.async: with .weak, \".mmio must not be specified\"" + where);
    st.scope = d.takeScope({Scope::Cluster});
    // "If .ss is not specified, generic addressing is used for operands a and mbar" (9.4)
    if (d.q.take("shared::cluster")) st.space = StateSpace::SharedCluster;
    if (d.q.take("global"))
        d.fail("st.async without .release writes .shared::cluster memory" + where);
    if (!d.q.take("mbarrier::complete_tx::bytes"))
        d.fail("st.async needs .mbarrier::complete_tx::bytes (" + cite(Sec::StAsync) + ")");
    if (auto v = d.q.takeOneOf({"v2", "v4"})) st.vec = (*v)[1] - '0';
    st.types = d.takeTypes();
    // .b128 (9.2): a 16-byte value, as ld/st.b128 the destination cell's whole word
    if (st.types.empty() && d.q.take("b128")) st.types = {Type{'b', 128}};
    if (st.types.size() != 1 ||
        (st.types[0].bits != 32 && st.types[0].bits != 64 && st.types[0].bits != 128))
        d.fail("st.async needs one 32-, 64- or 128-bit type" + where);
    if (st.vec != 1 && st.types[0].bits == 128)
        d.fail("st.async: .vec is not supported with .b128 (\".v2 is supported with .b32, .b64, "
               ".s32, .s64, .u32, .u64, .f32 and .f64 types\")" +
               where);
    // ".v4 qualifier is supported with .b32, .s32, .u32 and .f32 types" ({StAsync})
    if (st.vec == 4 && st.types[0].bits != 32)
        d.fail("st.async: \".v4 qualifier is supported with .b32, .s32, .u32 and .f32 types\"" +
               where);
    d.q.finish();
    return st;
}

St decodeSt(Decoder& d, StName name) {
    if (name == StName::St && d.q.take("async")) return decodeStAsync(d);
    St st{name, Sem::None, Scope::None, StateSpace::None, {}};
    ir::Sem sem;
    std::tie(st.sem, st.scope) = takeOrdering(d, ir::Sem::Weak, sem);
    if (sem == ir::Sem::Acquire || sem == ir::Sem::AcqRel) d.fail("a store cannot be .acquire");
    st.space = takeSpace(d);
    st.types = d.takeTypes();
    if (name == StName::St && st.types.empty() && d.q.take("b128")) st.types = {Type{'b', 128}};
    d.q.finish();
    return st;
}

/**
 * The 16-bit float and vector forms of atom/red ({Atom} Table 41 and its vector table; {Red}):
 * .add.noftz on .f16/.bf16/.f16x2/.bf16x2 ("require the .noftz qualifier"); with .v2/.v4/.v8 on
 * .f16/.bf16 and .v2/.v4 on the packed types .add, .min and .max ("all require .noftz"); and
 * .add{.noftz} on .v2/.v4.f32. "atom with vector type may be used only with .global space".
 */
void checkHalfOrVectorAtom(Decoder& d, const Atom& a, const std::string& where) {
    if (a.name != AtomName::Atom && a.name != AtomName::Red)
        d.fail("surface atomics (suatom, sured) have no 16-bit float or vector forms" + where);
    const bool packed = a.packed();
    if (a.half == HalfType::None) {
        if (a.types.size() != 1 || a.types[0] != Type{'f', 32})
            d.fail("a vector atomic is .add{.noftz}.v2/.v4.f32, or .add/.min/.max.noftz on "
                   ".f16, .bf16, .f16x2 or .bf16x2" +
                   where);
        if (a.vec == 8) d.fail(".v8 is not supported on .f32 (the vector table)" + where);
        if (a.op != AtomOp::Add) d.fail("a vector .f32 atomic is .add only" + where);
    } else {
        if (!a.types.empty())
            d.fail("one element type: ." + std::string(nameOf(kHalfTypes, a.half)) + " and ." +
                   (a.types[0].kind == 'p' ? std::string("pred")
                                           : a.types[0].kind + std::to_string(a.types[0].bits)) +
                   where);
        const bool minMax = a.op == AtomOp::Min || a.op == AtomOp::Max;
        if (a.op != AtomOp::Add && !(minMax && a.vec != 1))
            d.fail("on ." + std::string(nameOf(kHalfTypes, a.half)) + " an atomic has " +
                   (a.vec == 1 ? ".add.noftz only (Table 41; .min/.max take a vector)"
                               : ".add, .min or .max (the vector table)") +
                   where);
        if (packed && a.vec == 8)
            d.fail(".v8 is not supported on packed types (the vector table)" + where);
        if (!a.noftz)
            d.fail("." + std::string(nameOf(kAtomOps, a.op)) + "." +
                   std::string(nameOf(kHalfTypes, a.half)) +
                   " requires the .noftz qualifier (Table 41)" + where);
    }
    if (a.vec != 1 && a.space != StateSpace::Global && a.space != StateSpace::None)
        d.fail(std::string("\"") + (a.returns() ? "atom" : "red") +
               " with vector type may be used only with .global space\"" + where);
}

Atom decodeAtom(Decoder& d, AtomName name) {
    Atom a;
    a.name = name;
    ir::Sem sem;
    std::tie(a.sem, a.scope) = takeOrdering(d, ir::Sem::Relaxed, sem);
    if (sem == ir::Sem::Weak) d.fail("atomics cannot be .weak");
    if (!a.returns() && (sem == ir::Sem::Acquire || sem == ir::Sem::AcqRel))
        d.fail("red cannot be .acquire (" + cite(Sec::Red) + ")");
    a.space = takeSpace(d);
    auto op = d.takeRow(kAtomOps);
    if (!op) d.fail("missing atomic operation (.add, .exch, .cas, ...)");
    a.op = *op;
    // "cache_policy is a hint to the cache subsystem ... treated as a performance hint only, and
    // does not change the memory consistency behavior of the program" ({Atom}, {Red})
    if (name == AtomName::Atom || name == AtomName::Red) a.cacheHint = d.q.take("L2::cache_hint");
    // "The qualifier .level::cache_hint is only supported for .global state space and for generic
    // addressing where the address points to the .global state space" ({Atom}, {Red})
    // the compare-and-swap forms, "atom{.sem}{.scope}{.space}.op.type d, [a], b, c" and .cas.b16,
    // .cas.b128, take no .level::cache_hint ({Atom})
    if (a.cacheHint && a.op == AtomOp::Cas)
        d.fail("atom.cas has no .L2::cache_hint: its form is "
               "atom{.sem}{.scope}{.space}.cas.type d, [a], b, c (" +
               cite(Sec::Atom) + ")");
    if (a.cacheHint && a.space != StateSpace::Global && a.space != StateSpace::None)
        d.fail("\"The qualifier .level::cache_hint is only supported for .global state space\" (" +
               cite(a.returns() ? Sec::Atom : Sec::Red) + ")");
    a.noftz = d.q.take("noftz");
    if (auto v = d.q.takeOneOf({"v2", "v4", "v8"})) a.vec = (*v)[1] - '0';
    a.half = d.takeRow(kHalfTypes).value_or(HalfType::None);
    a.types = d.takeTypes();
    // atom{.sem}{.scope}{.space}.cas.b128 d, [a], b, c; ....exch{.level::cache_hint}.b128 d, [a],
    // b (8.3, {Atom}): a 16-byte value, as ld/st.b128 the location's whole word; .cas and .exch
    // compare and move it without arithmetic
    if (a.types.empty() && d.q.take("b128")) {
        if (name != AtomName::Atom || (a.op != AtomOp::Cas && a.op != AtomOp::Exch))
            d.fail(".b128 goes with atom's .cas and .exch only (" + cite(Sec::Atom) + ")");
        a.types = {Type{'b', 128}};
    }
    d.q.finish();
    // "inc(r, s) = (r >= s) ? 0 : r+1; dec(r, s) = (r==0 || r > s) ? s : r-1" and ".inc and .dec
    // are only supported for .u32 type" ({Atom}, {Red})
    bool incDec = a.op == AtomOp::Inc || a.op == AtomOp::Dec;
    if (incDec && name != AtomName::Atom && name != AtomName::Red)
        d.fail("surface atomics (suatom, sured) have no .inc/.dec");
    if (incDec && (a.types.size() != 1 || a.types[0] != Type{'u', 32}))
        d.fail("\".inc and .dec are only supported for .u32 type\" (" +
               cite(a.returns() ? Sec::Atom : Sec::Red) + ")");
    const std::string where = " (" + cite(a.returns() ? Sec::Atom : Sec::Red) + ")";
    if (a.half != HalfType::None || a.vec != 1) {
        checkHalfOrVectorAtom(d, a, where);
        return a;
    }
    // Table 41 ({Atom}): a scalar .f32 has ".add{.noftz}" only, which "rounds to nearest even";
    // binary64 arithmetic is not modelled
    const bool f32 = a.types.size() == 1 && a.types[0] == Type{'f', 32};
    if (a.types.size() == 1 && a.types[0].kind == 'f' && !f32)
        d.fail("floating-point ." + std::string(nameOf(kAtomOps, a.op)) + " on ." + 'f' +
               std::to_string(a.types[0].bits) +
               " is not supported: ptxmc computes no binary64 arithmetic" + where);
    if (f32 && (a.op != AtomOp::Add || (name != AtomName::Atom && name != AtomName::Red)))
        d.fail("on .f32 an atomic has .add{.noftz} only (Table 41)" + where);
    if (a.noftz && !f32) d.fail(".noftz goes with a floating-point .add" + where);
    // red's .op has no .exch or .cas ({Red}: ".op = { .and, .or, .xor, .add, .inc, .dec, .min,
    // .max }")
    if (name == AtomName::Red && (a.op == AtomOp::Exch || a.op == AtomOp::Cas))
        d.fail("red has no ." + std::string(nameOf(kAtomOps, a.op)) +
               " (its .op is .and, .or, "
               ".xor, .add, .inc, .dec, .min or .max)" +
               where);
    // 64-bit elements are 64-bit words, with each 64-bit type's operations of atom's Table 41
    // (".u64 | .add, .min, .max", ".s64 | .min, .max", ".b64 | .and, .or, .xor, .exch, .cas"),
    // red's Table 42 (the same, .b64 with .and, .or, .xor) and sured's ("Operation add applies
    // to .u32, .u64, and .s32 types; min and max apply to .u32, .s32, .u64 and .s64 types";
    // "The instruction type .b64 is restricted to min and max operations", PTX ISA 9.7.13.3)
    if (a.types.size() == 1 && a.types[0].bits == 64 && a.types[0].kind != 'f') {
        const Type t = a.types[0];
        const bool minMax = a.op == AtomOp::Min || a.op == AtomOp::Max;
        const bool bitwise = a.op == AtomOp::And || a.op == AtomOp::Or || a.op == AtomOp::Xor ||
                             a.op == AtomOp::Exch || a.op == AtomOp::Cas;
        const bool surface = name == AtomName::Suatom || name == AtomName::Sured;
        const bool ok = surface && t.kind != 'u' ? minMax
                        : t.kind == 'u'          ? (a.op == AtomOp::Add || minMax)
                        : t.kind == 's'          ? minMax
                                                 : bitwise;
        const std::string table = surface                  ? "the surface reduction's table"
                                  : name == AtomName::Atom ? "Table 41"
                                                           : "Table 42";
        const std::string allowed = t.kind == 'u'            ? ".add, .min and .max"
                                    : t.kind == 's'          ? ".min and .max"
                                    : surface                ? ".min and .max"
                                    : name == AtomName::Atom ? ".and, .or, .xor, .exch and .cas"
                                                             : ".and, .or and .xor";
        if (!ok)
            d.fail("." + std::string(nameOf(kAtomOps, a.op)) + " on ." + t.kind + "64 is not in " +
                   table + ": ." + t.kind + "64 takes " + allowed + where);
    }
    return a;
}

/** red.async, both forms of the 9.4 text ({RedAsync}). */
RedAsync decodeRedAsync(Decoder& d) {
    RedAsync r;
    r.mmio = d.q.take("mmio");
    auto sem = d.q.takeOneOf({"relaxed", "release"});
    if (!sem) d.fail("red.async needs .relaxed or .release (" + cite(Sec::RedAsync) + ")");
    r.sem = *sem == "relaxed" ? Sem::Relaxed : Sem::Release;
    r.scope = d.takeScope(kAllScopes);
    r.space =
        d.takeRow(std::array<Row<StateSpace>, 2>{{{StateSpace::SharedCluster, "shared::cluster"},
                                                  {StateSpace::Global, "global"}}})
            .value_or(StateSpace::None);
    r.mbarrierWritten = d.q.take("mbarrier::complete_tx::bytes");
    auto op = d.takeRow(kAtomOps);
    if (!op) d.fail("red.async needs its operation (.add, .min, .max, .and, .or, .xor, ...)");
    r.op = *op;
    r.types = d.takeTypes();
    d.q.finish();
    auto is = [&](char kind, int bits) {
        return r.types.size() == 1 && r.types[0] == Type{kind, bits};
    };
    std::string where = " (" + cite(Sec::RedAsync) + ")";
    if (r.sem == Sem::Relaxed) {
        // .sem = .relaxed, .scope = .cluster, .ss = .shared::cluster, mechanism complete_tx
        if (r.scope != Scope::Cluster) d.fail("red.async.relaxed needs scope .cluster" + where);
        if (r.mmio) d.fail("red.async.relaxed: \".mmio must not be specified\"" + where);
        if (r.space == StateSpace::Global)
            d.fail("red.async.relaxed: \"If .ss is specified, it must be .shared::cluster\"" +
                   where);
        bool ok = false;
        switch (r.op) {
        case AtomOp::Inc:
        case AtomOp::Dec:
            ok = is('u', 32);
            break;
        case AtomOp::Min:
        case AtomOp::Max:
            ok = is('u', 32) || is('s', 32);
            break;
        case AtomOp::And:
        case AtomOp::Or:
        case AtomOp::Xor:
            ok = is('b', 32);
            break;
        case AtomOp::Add:
            ok = is('u', 32) || is('s', 32) || is('u', 64);
            break;
        default:
            break;
        }
        if (!ok)
            d.fail("red.async.relaxed takes .inc/.dec.u32, .min/.max.{u32,s32}, "
                   ".and/.or/.xor.b32 or .add.{u32,s32,u64}" +
                   where);
    } else {
        // .sem = .release, .scope = {.gpu, .sys}, .ss = .global, .add only, no mechanism
        if (r.scope != Scope::Gpu && r.scope != Scope::Sys)
            d.fail("red.async.release needs scope .gpu or .sys (the 9.4 text; 9.3 corrected "
                   ".cluster to .sys)" +
                   where);
        if (r.mmio && r.scope != Scope::Sys)
            d.fail("red.async: \"If .mmio is specified, .scope must be .sys\"" + where);
        if (r.space == StateSpace::SharedCluster)
            d.fail("red.async.release: \"If .ss is specified, it must be .global\"" + where);
        if (r.mbarrierWritten)
            d.fail("red.async.release: \".completion_mechanism must not be specified\"" + where);
        if (r.op != AtomOp::Add || !(is('u', 32) || is('s', 32) || is('u', 64) || is('s', 64)))
            d.fail("red.async.release is .add.{u32,s32,u64,s64}" + where);
    }
    return r;
}

Op decodeProxyFence(Decoder& d);

/**
 * membar.proxy.proxykind, .proxykind = { .alias, .async, .async.global, .async.shared::{cta,
 * cluster} }: "On sm_70 and higher, membar.proxy is a synonym for fence.proxy" ({Membar}), the
 * bi-directional proxy fence of the same proxykind.
 */
Op decodeMembarProxy(Decoder& d) {
    ProxyFence f = std::get<ProxyFence>(decodeProxyFence(d));
    if ((f.kind != ProxyKind::Alias && f.kind != ProxyKind::Async) || f.sem != Sem::None ||
        f.syncRestrict != StateSpace::None)
        d.fail("membar.proxy takes .alias, .async, .async.global or .async.shared::{cta,cluster} "
               "(" +
               cite(Sec::Membar) + ")");
    f.membar = true;
    return f;
}

Op decodeMembar(Decoder& d) {
    if (d.q.take("proxy")) return decodeMembarProxy(d);
    auto s = d.q.takeOneOf({"cta", "gl", "sys"});
    if (!s) d.fail("membar needs .cta, .gl or .sys");
    d.q.finish();
    return Membar{*s == "cta" ? Scope::Cta : *s == "gl" ? Scope::Gpu : Scope::Sys};
}

Op decodeProxyFence(Decoder& d) {
    ProxyFence f;
    if (auto k = d.q.takeOneOf({"generic::fabric", "fabric::generic", "fabric::fabric"})) {
        // fence.proxy.to_proxykind::from_proxykind_fabric.alias.sem_fabric.sys, .sem_fabric =
        // { .acquire, .release } (9.3, {Membar}): every part is required
        f.kind = *valueOf(kProxies, *k);
        const std::string what = "fence.proxy." + *k;
        auto sem = d.q.takeOneOf({"release", "acquire"});
        if (!d.q.take("alias") || !sem)
            d.fail(what + " is " + what + ".alias.{release,acquire}.sys (" + cite(Sec::Membar) +
                   ")");
        f.sem = *sem == "release" ? Sem::Release : Sem::Acquire;
        f.scope = d.takeScope(kAllScopes);
        if (f.scope != Scope::Sys)
            d.fail(what + ".alias needs scope .sys (" + cite(Sec::Membar) + ")");
    } else if (d.q.take("alias")) {
        f.kind = ProxyKind::Alias;
        // fence.proxy.alias{.sem}.scope with .sem_alias = {.acquire, .release}, .scope_alias =
        // {.sys} (9.4 text, {Membar})
        if (auto sem = d.q.takeOneOf({"release", "acquire"})) {
            f.sem = *sem == "release" ? Sem::Release : Sem::Acquire;
            f.scope = d.takeScope(kAllScopes);
            if (f.scope != Scope::Sys)
                d.fail("fence.proxy.alias." + *sem + " needs scope .sys (" + cite(Sec::Membar) +
                       ")");
        }
    } else if (d.q.take("async::generic")) {
        // the restricted async/generic proxy fences ({Membar}): a proxy fence and a release
        // (acquire) fence restricted like fence.{release,acquire}.sync_restrict
        f.kind = ProxyKind::Async;
        auto sem = d.q.takeOneOf({"release", "acquire"});
        if (!sem) d.fail("fence.proxy.async::generic needs .release or .acquire");
        f.sem = *sem == "release" ? Sem::Release : Sem::Acquire;
        // 9.4: fence.proxy.async::generic.release.sync_restrict::shared::cluster::read.cluster,
        // "the effect of the fence only applies to read operations performed on objects in
        // .shared::cluster state space" ({Membar})
        if (d.q.take("sync_restrict::shared::cluster::read")) {
            f.syncRestrict = StateSpace::SharedCluster;
            f.readOnly = true;
            f.scope = d.takeScope(kAllScopes);
            if (f.sem != Sem::Release)
                d.fail(".sync_restrict::shared::cluster::read needs .release (" +
                       cite(Sec::Membar) + ")");
            if (f.scope != Scope::Cluster)
                d.fail("fence.proxy.async::generic needs scope .cluster (" + cite(Sec::Membar) +
                       ")");
            d.q.finish();
            return f;
        }
        auto r = d.takeRow(kSyncRestricts);
        if (!r) d.fail("fence.proxy.async::generic needs .sync_restrict::shared::{cta,cluster}");
        f.syncRestrict = *r;
        f.scope = d.takeScope(kAllScopes);
        if (f.sem == Sem::Release && f.syncRestrict != StateSpace::SharedCta)
            d.fail("fence.proxy.async::generic.release takes .sync_restrict::shared::cta (" +
                   cite(Sec::Membar) + ")");
        if (f.sem == Sem::Acquire && f.syncRestrict != StateSpace::SharedCluster)
            d.fail("fence.proxy.async::generic.acquire takes .sync_restrict::shared::cluster (" +
                   cite(Sec::Membar) + ")");
        if (f.scope != Scope::Cluster)
            d.fail("fence.proxy.async::generic needs scope .cluster (" + cite(Sec::Membar) + ")");
    } else if (d.q.take("async")) {
        f.kind = ProxyKind::Async;
        // .shared::cta covers the executing CTA's shared memory, .shared::cluster the
        // cluster's; a bare .shared means .shared::cta (PTX ISA #shared-state-space,
        // #parallel-synchronization-and-communication-instructions-membar).
        if (d.q.take("global"))
            f.space = StateSpace::Global;
        else if (auto s = d.q.takeOneOf({"shared::cta", "shared"}))
            f.space = *s == "shared" ? StateSpace::Shared : StateSpace::SharedCta;
        else if (d.q.take("shared::cluster"))
            f.space = StateSpace::SharedCluster;
    } else if (auto p = d.q.takeOneOf({"surface", "texture", "constant"})) {
        f.kind = *valueOf(kProxies, *p);
    } else if (d.q.take("tensormap::generic")) {
        // uni-directional, generic to tensormap: .release.scope, or .acquire.scope [addr], 128
        f.kind = ProxyKind::Tensormap;
        auto sem = d.q.takeOneOf({"release", "acquire"});
        if (!sem) d.fail("fence.proxy.tensormap::generic needs .release or .acquire");
        f.sem = *sem == "release" ? Sem::Release : Sem::Acquire;
        f.scope = d.takeScope(kAllScopes);
        if (f.scope == Scope::None)
            d.fail("fence.proxy.tensormap::generic needs a scope (.cta, .cluster, .gpu or .sys)");
    } else {
        d.fail("unsupported proxy fence '" + d.inst.opcode + "'");
    }
    d.q.finish();
    return f;
}

Op decodeFence(Decoder& d) {
    if (d.q.take("proxy")) return decodeProxyFence(d);
    if (d.q.take("mbarrier_init")) {
        // fence.mbarrier_init.release.cluster: the only form (PTX ISA
        // #parallel-synchronization-and-communication-instructions-membar)
        if (!d.q.take("release") || !d.q.take("cluster"))
            d.fail("fence.mbarrier_init needs .release.cluster");
        d.q.finish();
        return Fence{Sem::Release, Scope::Cluster, true};
    }
    Sem sem = d.takeRow(kFenceSems).value_or(Sem::None);
    StateSpace restrict = d.takeRow(kSyncRestricts).value_or(StateSpace::None);
    Scope scope = d.takeScope(kAllScopes);
    if (scope == Scope::None) d.fail("a fence needs a scope (.cta, .cluster, .gpu or .sys)");
    // "When .sync_restrict is .sync_restrict::shared::cta, .sem must be .release ... when
    // .sync_restrict is .sync_restrict::shared::cluster, .sem must be .acquire ... the .scope must
    // be specified as .cluster" ({Membar})
    if (restrict == StateSpace::SharedCta && sem != Sem::Release)
        d.fail(".sync_restrict::shared::cta needs .release (" + cite(Sec::Membar) + ")");
    if (restrict == StateSpace::SharedCluster && sem != Sem::Acquire)
        d.fail(".sync_restrict::shared::cluster needs .acquire (" + cite(Sec::Membar) + ")");
    if (restrict != StateSpace::None && scope != Scope::Cluster)
        d.fail("a .sync_restrict fence needs scope .cluster (" + cite(Sec::Membar) + ")");
    d.q.finish();
    return Fence{sem, scope, false, restrict};
}

/** tensormap.replace / tensormap.cp_fenceproxy (PTX ISA
 * #data-movement-and-conversion-instructions-tensormap-replace,
 * #parallel-synchronization-and-communication-instructions-tensormap-cp-fenceproxy). */
Op decodeTensormap(Decoder& d) {
    const std::string& what = d.inst.parts.size() > 1 ? d.inst.parts[1] : "";
    if (what == "replace") {
        TensormapReplace r;
        if (!d.q.take("tile")) d.fail("tensormap.replace needs .tile");
        static const char* const fields[] = {
            "global_address", "rank",     "box_dim",           "global_dim",   "global_stride",
            "element_stride", "elemtype", "interleave_layout", "swizzle_mode", "swizzle_atomicity",
            "fill_mode"};
        auto f = d.q.takeIf([](const std::string& q) {
            return std::find(std::begin(fields), std::end(fields), q) != std::end(fields);
        });
        if (!f) d.fail("tensormap.replace needs the field it replaces (.global_address, ...)");
        r.field = *f;
        if (auto sp = d.q.takeOneOf({"global", "shared::cta"})) r.space = *valueOf(kSpaces, *sp);
        if (!d.q.take("b1024")) d.fail("tensormap.replace needs .b1024");
        r.types = d.takeTypes();
        if (r.types.size() != 1 || r.types[0].kind != 'b' ||
            (r.types[0].bits != 32 && r.types[0].bits != 64))
            d.fail("tensormap.replace needs the new value's type, .b32 or .b64");
        d.q.finish();
        return r;
    }
    if (what == "cp_fenceproxy") {
        TensormapCopy c;
        bool spaces = d.q.take("global") && d.q.take("shared::cta");
        if (!spaces || !d.q.take("tensormap::generic") || !d.q.take("release"))
            d.fail("tensormap.cp_fenceproxy is "
                   ".global.shared::cta.tensormap::generic.release.scope.sync.aligned");
        c.scope = d.takeScope(kAllScopes);
        if (c.scope == Scope::None)
            d.fail("tensormap.cp_fenceproxy needs a scope (.cta, .cluster, .gpu or .sys)");
        if (!d.q.take("sync") || !d.q.take("aligned"))
            d.fail("tensormap.cp_fenceproxy needs .sync.aligned");
        d.q.finish();
        return c;
    }
    d.fail("unknown instruction '" + d.inst.opcode + "'");
}

Op decodeBarrier(Decoder& d, bool barrierSpelling) {
    Barrier b;
    b.barrierSpelling = barrierSpelling;
    if (barrierSpelling && d.q.take("cluster")) {
        // barrier.cluster.arrive{.sem}{.aligned} / barrier.cluster.wait{.acquire}{.aligned}
        b.cluster = true;
        b.arrive = d.q.take("arrive");
        b.wait = !b.arrive && d.q.take("wait");
        if (!b.arrive && !b.wait) d.fail("barrier.cluster needs .arrive or .wait");
        if (b.arrive) {
            auto sem = d.q.takeOneOf({"release", "relaxed"});
            b.sem = sem && *sem == "relaxed" ? Sem::Relaxed : Sem::Release;
        } else {
            d.q.take("acquire");
            b.sem = Sem::Acquire;
        }
        b.aligned = d.q.take("aligned");
        d.q.finish();
        return b;
    }
    if (!barrierSpelling && d.q.take("warp")) { // bar.warp.sync membermask ({BarWarpSync})
        if (!d.q.take("sync")) d.fail("bar.warp needs .sync (" + cite(Sec::BarWarpSync) + ")");
        d.q.finish();
        return BarWarpSync{};
    }
    b.cta = d.q.take("cta");
    if (d.q.take("red")) { // bar.red.popc.u32 d, a{, b}, {!}c / bar.red.{and,or}.pred p, ...
        const std::string where = " (" + cite(Sec::BarBarrier) + ")";
        auto op = d.takeRow(kBarrierRedOps);
        if (!op) d.fail("bar.red needs .popc, .and or .or" + where);
        b.red = true;
        b.redOp = *op;
        b.aligned = d.q.take("aligned");
        std::vector<Type> types = d.takeTypes();
        const Type want = *op == BarrierRedOp::Popc ? Type{'u', 32} : Type{'p', 0};
        if (types.size() != 1 || types[0] != want)
            d.fail(std::string(*op == BarrierRedOp::Popc ? "bar.red.popc needs .u32"
                                                         : "bar.red.and/.or need .pred") +
                   where);
        d.q.finish();
        return b;
    }
    b.aligned = d.q.take("aligned");
    b.arrive = d.q.take("arrive");
    if (!b.arrive && !d.q.take("sync"))
        d.fail("only bar.sync / bar.arrive / barrier.sync / barrier.arrive (and "
               "barrier.cluster.arrive/wait) are supported");
    d.q.finish();
    return b;
}

/**
 * ldmatrix / stmatrix ({Ldmatrix}, {Stmatrix}): the forms of the 9.4 syntax blocks, with the
 * combinations the text restricts ("When .shape is .m16n16, only .x1 and .x2 are valid values for
 * .num"; ".trans is mandatory" for 16x16 loads and 16x8 stores; ".m16n8 shape is valid only for
 * .b8 type").
 */
Matrix decodeMatrix(Decoder& d, bool store) {
    Matrix m;
    m.store = store;
    const std::string name = store ? "stmatrix" : "ldmatrix";
    const std::string where = " (" + cite(store ? Sec::Stmatrix : Sec::Ldmatrix) + ")";
    if (!d.q.take("sync") || !d.q.take("aligned")) d.fail(name + " needs .sync.aligned" + where);
    auto shape = d.takeRow(kMatrixShapes);
    if (!shape)
        d.fail(name + " needs its .shape (" +
               (store ? ".m8n8 or .m16n8" : ".m8n8, .m16n16 or .m8n16") + ")" + where);
    m.shape = *shape;
    auto num = d.q.takeOneOf({"x1", "x2", "x4"});
    if (!num) d.fail(name + " needs .x1, .x2 or .x4" + where);
    m.num = (*num)[1] - '0';
    m.trans = d.q.take("trans");
    m.space = d.takeRow(std::array<Row<StateSpace>, 2>{{{StateSpace::Shared, "shared"},
                                                        {StateSpace::SharedCta, "shared::cta"}}})
                  .value_or(StateSpace::None);
    // The type: one qualifier, or two (.dst_fmt.src_fmt, .dtype.ctype) spelled as one row.
    std::optional<MatrixType> type;
    if (auto one = d.q.takeOneOf({"b16", "b8"}))
        type = *one == "b16" ? MatrixType::B16 : MatrixType::B8;
    else if (d.q.take("b8x16")) {
        if (auto src = d.q.takeOneOf({"b6x16_p32", "b4x16_p64"}))
            type = *src == "b6x16_p32" ? MatrixType::B8x16B6x16P32 : MatrixType::B8x16B4x16P64;
        else
            d.fail("ldmatrix .b8x16 needs its source format .b6x16_p32 or .b4x16_p64" + where);
    } else if (d.q.take("s8")) {
        if (!d.q.take("s4")) d.fail("ldmatrix .s8 needs .s4 (.dtype.ctype)" + where);
        type = MatrixType::S8S4;
    }
    if (!type) d.fail(name + " needs its type (.b16, .b8, ...)" + where);
    m.type = *type;
    d.q.finish();
    auto bad = [&](const std::string& why) { d.fail(name + ": " + why + where); };
    bool fmt = m.type == MatrixType::B8x16B6x16P32 || m.type == MatrixType::B8x16B4x16P64;
    if (store) {
        if (m.shape != MatrixShape::M8n8 && m.shape != MatrixShape::M16n8)
            bad(".shape is .m8n8 or .m16n8");
        if (m.type != MatrixType::B16 && m.type != MatrixType::B8) bad(".type is .b16 or .b8");
        if (m.shape == MatrixShape::M16n8 && m.type != MatrixType::B8)
            bad("\".m16n8 shape is valid only for .b8 type\"");
        if (m.shape == MatrixShape::M8n8 && m.type != MatrixType::B16)
            bad(".m8n8 matrices hold 16-bit elements (.b16)");
        if (m.shape == MatrixShape::M16n8 && !m.trans)
            bad("\"for 16x8 matrices, .trans is mandatory\"");
        return m;
    }
    switch (m.shape) {
    case MatrixShape::M8n8:
        if (m.type != MatrixType::B16) bad(".m8n8 matrices hold 16-bit elements (.b16)");
        break;
    case MatrixShape::M16n16:
        if (m.type != MatrixType::B8 && !fmt)
            bad(".m16n16 takes .b8 or .b8x16 with a source format");
        if (!m.trans) bad("\"for 16x16 matrices, .trans is mandatory\"");
        if (m.num == 4)
            bad("\"When .shape is .m16n16, only .x1 and .x2 are valid values for .num\"");
        break;
    case MatrixShape::M8n16:
        if (!fmt && m.type != MatrixType::S8S4)
            bad(".m8n16 takes .b8x16 with a source format, or .s8.s4");
        if (m.trans) bad(".m8n16 has no .trans form");
        break;
    case MatrixShape::M16n8:
        bad(".m16n8 is a stmatrix shape");
    }
    return m;
}

/**
 * A written type of add/sub/mul/and/or/xor, as the integer and logic instructions take it
 * (9.7.1.1-9.7.1.3: ".type = { .u16, .u32, .u64, .s16, .s32, .s64 }", mul with its mode, of
 * which ptxmc computes .lo; 9.7.8.1-9.7.8.3: ".type = { .pred, .b16, .b32, .b64 }"). The litmus
 * shorthand without a type (herd's and Dat3M's `add r, r, 1`) is taken as written.
 */
void checkArithType(Decoder& d, const Arith& a) {
    if (a.types.empty()) return;
    const std::string name = d.inst.parts[0];
    if (a.types.size() != 1) d.fail("'" + d.inst.opcode + "' takes one type");
    const Type t = a.types[0];
    const bool logic = a.op == ArithOp::And || a.op == ArithOp::Or || a.op == ArithOp::Xor;
    const bool width = t.bits == 16 || t.bits == 32 || t.bits == 64;
    if (logic && !(t.kind == 'p' || (t.kind == 'b' && width)))
        d.fail("'" + d.inst.opcode + "': " + name + "'s type is .pred, .b16, .b32 or .b64 (" +
               cite(Sec::LogicInstructions) + ")");
    if (!logic && !((t.kind == 'u' || t.kind == 's') && width))
        d.fail("'" + d.inst.opcode + "': " + name +
               "'s type is .u16, .u32, .u64, .s16, .s32 or .s64 (ptxmc computes integer " + name +
               "; " + cite(Sec::IntegerArithmetic) + ")");
    if (a.op == ArithOp::Mul && !a.lo)
        d.fail("'" + d.inst.opcode +
               "': mul's mode is .lo here (\"mul.lo\": the low half of the "
               "product; .hi and .wide are not modelled; " +
               cite(Sec::IntegerArithmetic) + ")");
}

Op decodeArith(Decoder& d, ArithOp op) {
    Arith a;
    a.op = op;
    if (op == ArithOp::Mul) a.lo = d.q.take("lo"); // the low half: what registers keep anyway
    a.types = d.takeTypes();
    d.q.finish();
    checkArithType(d, a);
    return a;
}

} // namespace

std::optional<Op> decodeGeneric(Decoder& d) {
    const std::string& n = d.inst.parts[0];
    static const std::array<Row<LdName>, 5> loads = {{{LdName::Ld, "ld"},
                                                      {LdName::Suld, "suld"},
                                                      {LdName::Tld, "tld"},
                                                      {LdName::Cold, "cold"},
                                                      {LdName::Ldc, "ldc"}}};
    static const std::array<Row<AtomName>, 4> atomics = {{{AtomName::Atom, "atom"},
                                                          {AtomName::Suatom, "suatom"},
                                                          {AtomName::Red, "red"},
                                                          {AtomName::Sured, "sured"}}};
    if (auto ld = valueOf(loads, n)) return decodeLd(d, *ld);
    if (n == "st" || n == "sust") return decodeSt(d, n == "st" ? StName::St : StName::Sust);
    if (n == "red" && d.q.take("async")) return decodeRedAsync(d);
    if (n == "ldmatrix" || n == "stmatrix") return decodeMatrix(d, n == "stmatrix");
    if (auto a = valueOf(atomics, n)) return decodeAtom(d, *a);
    if (n == "fence") return decodeFence(d);
    if (n == "tensormap") return decodeTensormap(d);
    if (n == "membar") return decodeMembar(d);
    if (n == "bar" || n == "barrier") return decodeBarrier(d, n == "barrier");
    if (n == "add") return decodeArith(d, ArithOp::Add);
    if (n == "sub") return decodeArith(d, ArithOp::Sub);
    if (n == "mul") return decodeArith(d, ArithOp::Mul);
    if (n == "and") return decodeArith(d, ArithOp::And);
    if (n == "or") return decodeArith(d, ArithOp::Or);
    if (n == "xor") return decodeArith(d, ArithOp::Xor);
    return std::nullopt;
}

} // namespace ptxmc::ptx::detail
