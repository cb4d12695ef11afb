// Generic-proxy instructions: ld/st/atom/red, fences, barriers, proxy accesses, arithmetic.
#include "ir/Gates.hpp"
#include "lower/Floats.hpp"
#include "lower/Instructions.hpp"
#include "ptx/Decode.hpp"
#include "ptx/Sections.hpp"

#include <array>
#include <functional>

namespace ptxmc::lower {

using ir::Sem;
using ir::Tag;
using ir::Value;

std::optional<Tag> scopeTag(ir::Scope s) {
    switch (s) {
    case ir::Scope::Cta:
        return Tag::CTA;
    case ir::Scope::Cluster:
        return Tag::CLUSTER;
    case ir::Scope::Gpu:
        return Tag::GPU;
    case ir::Scope::Sys:
        return Tag::SYS;
    case ir::Scope::None:
        break;
    }
    return std::nullopt;
}

std::optional<Tag> semTag(Sem s) {
    switch (s) {
    case Sem::Weak:
        return Tag::Weak;
    case Sem::Relaxed:
        return Tag::Relaxed;
    case Sem::Acquire:
        return Tag::Acquire;
    case Sem::Release:
        return Tag::Release;
    case Sem::AcqRel:
        return Tag::AcqRel;
    case Sem::Sc:
        return Tag::SC;
    case Sem::None:
        break;
    }
    return std::nullopt;
}

namespace {

/** The spelled state space, and whether it reaches the cluster (.shared::cluster). */
struct SpaceQualifier {
    std::optional<ir::Space> space;
    bool cluster = false;
};

SpaceQualifier spaceOf(ptx::StateSpace s) {
    switch (s) {
    case ptx::StateSpace::None:
        return {};
    case ptx::StateSpace::Global:
        return {ir::Space::Global, false};
    case ptx::StateSpace::Shared:
    case ptx::StateSpace::SharedCta:
        return {ir::Space::Shared, false};
    case ptx::StateSpace::SharedCluster:
        return {ir::Space::Shared, true};
    }
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

ir::Proxy proxyOf(ptx::LdName n) {
    switch (n) {
    case ptx::LdName::Suld:
        return ir::Proxy::Surface;
    case ptx::LdName::Tld:
        return ir::Proxy::Texture;
    case ptx::LdName::Cold:
    case ptx::LdName::Ldc:
        return ir::Proxy::Constant;
    case ptx::LdName::Ld:
        break;
    }
    return ir::Proxy::Generic;
}

/** The bytes an access of `types` moves: its type's, 4 (a cell) for an untyped Dat3M access. */
int accessBytes(const std::vector<ptx::Type>& types) {
    return types.empty() || types[0].bits < 8 ? 4 : types[0].bits / 8;
}

} // namespace

/**
 * The value a sub-word access of `t` (8 or 16 bits) moves: a store's source "is truncated
 * (chopped) to the appropriate number of bits specified by the instruction type-size"
 * (Operand Size Exceeding Instruction-Type Size); a load's bits are the cell's low bytes (the
 * GPU is little-endian, the access at the cell's address) and "the value loaded is sign-extended
 * to the destination register width for signed integers, and is zero-extended ... for unsigned
 * and bit-size types" (ld, #data-movement-and-conversion-instructions-ld). A 32-bit or wider access
 * moves the word as it is.
 */
ir::ValuePtr subWordValue(const ir::ValuePtr& v, const ptx::Type& t, bool load) {
    if (t.bits >= 32 || t.bits < 8) return v;
    const std::int64_t mask = (std::int64_t{1} << t.bits) - 1;
    ir::ValuePtr low = Value::make(Value::Op::And, {v, Value::makeConst(mask)});
    if (!load || t.kind != 's') return low;
    const ir::ValuePtr sign = Value::makeConst(std::int64_t{1} << (t.bits - 1));
    return Value::make(Value::Op::Sub, {Value::make(Value::Op::Xor, {low, sign}), sign});
}

void lowerLoad(Lowerer& l, const ptx::Ld& ld) {
    auto o = ptx::effectiveOrdering(ld.sem, ld.scope, Sem::Weak);
    l.expectOperands(2);
    const auto& src = l.operand(1);
    if (src.kind == litmus::Operand::Kind::Integer) { // Dat3M's `ld.weak r0, 1`
        l.define(l.operand(0), accessBytes(ld.types) == 8 ? l.value64(src) : l.value(src));
        return;
    }
    Address a = genericAddress(l, src, spaceOf(ld.space));
    l.checkAccessWidth(a, src, accessBytes(ld.types));
    ir::Event& e = l.issue({Tag::R});
    setOrdering(e, o.sem, o.scope);
    l.access(e, a, proxyOf(ld.name));
    l.noteWidth(e, src, accessBytes(ld.types));
    ir::ValuePtr read = Value::readOf(e.id);
    l.define(l.operand(0), ld.types.empty() ? read : subWordValue(read, ld.types[0], true));
}

namespace {

/** The values a store's source operand holds: one, or a vector's `vec` elements ({b, c}),
 *  each of `bytes` bytes (8: a 64-bit value, an immediate taken as written). */
std::vector<ir::ValuePtr> storedValues(Lowerer& l, const litmus::Operand& b, int vec,
                                       int bytes = 4) {
    std::vector<ir::ValuePtr> values;
    for (const litmus::Operand& e : vectorOperand(l, b, vec))
        values.push_back(bytes == 8 ? l.value64(e) : l.value(e));
    return values;
}

/**
 * st.async (PTX ISA #data-movement-and-conversion-instructions-st-async): a weak generic-proxy
 * write into shared memory of a CTA of the cluster, performed asynchronously, then a complete-tx of
 * its bytes on the mbarrier in the destination's CTA, a release at cluster scope
 * ({MbarrierCompleteTxOperation}). With .v2/.v4 it "stores the value specified by source operand
 * b" element by element at consecutive addresses (the array elements after [a]): "The store
 * operation is treated as a weak memory operation", so each element is a weak write of its own
 * (a weak access promises no atomicity to split), and the complete-tx counts "the amount of data
 * stored in bytes", the whole vector ({StAsync#}).
 */
void lowerStoreAsync(Lowerer& l, const ptx::St& st) {
    l.expectOperands(3);
    Address a = l.address(l.operand(0), ir::Space::Shared);
    l.checkReach(a, l.operand(0), true);
    const int bytes = st.types[0].bits / 8;
    l.checkAccessWidth(a, l.operand(0), bytes);
    std::vector<Address> elements = {a};
    for (int k = 1; k < st.vec; ++k)
        elements.push_back(l.elementAfter(a, l.operand(0), k, bytes));
    std::vector<ir::ValuePtr> values = storedValues(l, l.operand(1), st.vec, bytes);
    Address mb = l.address(l.operand(2), ir::Space::Mbarrier);
    l.checkReach(mb, l.operand(2), true);
    if (mb.cta != a.cta)
        l.fail(l.operand(2).loc, "st.async's mbarrier must be in the destination's CTA (" +
                                     ptx::cite(ptx::Sec::StAsync) + ")");
    int issueId = l.issue({}).id;
    for (std::size_t k = 0; k < elements.size(); ++k) {
        ir::Event& w =
            l.exec(issueId, "write " + Lowerer::accessName(l.operand(0), elements[k]), {Tag::W});
        l.access(w, elements[k], ir::Proxy::Generic);
        l.noteWidth(w, l.operand(0), bytes);
        w.sem = Sem::Weak;
        w.tags.insert(Tag::Weak);
        w.written = values[k];
    }
    completeTxAtCluster(l, issueId, mb, std::int64_t{bytes} * st.vec, false);
}

} // namespace

void lowerStore(Lowerer& l, const ptx::St& st) {
    if (st.async && st.sem == ptx::Sem::Release) {
        // st.async.release.{gpu,sys}{.global} (9.4, {StAsync#}): "a release store to global
        // memory ... a strong memory operation with .release semantics at the scope specified by
        // .scope", in the generic proxy, with no completion mechanism: release pattern 5 of
        // {ReleaseAcquirePatterns} ("st.async.release.sys [M];"). As red.async.release, an
        // issue-level release write: the release orders every earlier operation of the thread
        // before it; program order also places the thread's later accesses of the location after
        // it, which the text leaves unordered.
        l.expectOperands(2);
        Address a = genericAddress(l, l.operand(0), spaceOf(ptx::StateSpace::Global));
        if (l.program().locations[static_cast<std::size_t>(a.location)].space != ir::Space::Global)
            l.fail(l.operand(0).loc, "st.async.release stores to global memory (" +
                                         ptx::cite(ptx::Sec::StAsync) + ")");
        const int bytes = accessBytes(st.types);
        l.checkStoreWidth(a, l.operand(0), bytes);
        ir::ValuePtr v = subWordValue(bytes == 8 ? l.value64(l.operand(1)) : l.value(l.operand(1)),
                                      st.types[0], false);
        ir::Event& e = l.issue({Tag::W});
        setOrdering(e, Sem::Release, st.scope);
        l.access(e, a, ir::Proxy::Generic);
        l.noteWidth(e, l.operand(0), bytes);
        e.written = v;
        return;
    }
    if (st.async) return lowerStoreAsync(l, st);
    auto o = ptx::effectiveOrdering(st.sem, st.scope, Sem::Weak);
    l.expectOperands(2);
    Address a = genericAddress(l, l.operand(0), spaceOf(st.space));
    const int bytes = accessBytes(st.types);
    l.checkStoreWidth(a, l.operand(0), bytes);
    ir::ValuePtr v = bytes == 8 ? l.value64(l.operand(1)) : l.value(l.operand(1));
    if (!st.types.empty()) v = subWordValue(v, st.types[0], false);
    ir::Event& e = l.issue({Tag::W});
    setOrdering(e, o.sem, o.scope);
    l.access(e, a, st.name == ptx::StName::Sust ? ir::Proxy::Surface : ir::Proxy::Generic);
    l.noteWidth(e, l.operand(0), bytes);
    e.written = v;
}

/**
 * ldmatrix / stmatrix ({Ldmatrix}, {Stmatrix}): "treated as a weak memory operation". The
 * warp's collective access is one weak generic-proxy read (write) of the shared location [p]
 * names, in the thread's own CTA (.shared{::cta}, or generic addressing that "points into .shared
 * space"). A load defines every register of the vector with the value read (each stands for the
 * warp's fragment of that location); a store writes the value of the vector's first register.
 */
void lowerMatrix(Lowerer& l, const ptx::Matrix& m) {
    l.expectOperands(2);
    const litmus::Operand& vec = l.operand(m.store ? 1 : 0);
    const litmus::Operand& mem = l.operand(m.store ? 0 : 1);
    const std::string name = m.store ? "stmatrix" : "ldmatrix";
    const std::string where =
        " (" + ptx::cite(m.store ? ptx::Sec::Stmatrix : ptx::Sec::Ldmatrix) + ")";
    if (vec.kind != litmus::Operand::Kind::Vector)
        l.fail(vec.loc, name + "'s registers are a brace-enclosed vector such as {r0}" + where);
    if (vec.elements.size() != static_cast<std::size_t>(m.registers()))
        l.fail(vec.loc, "'" + l.inst().opcode + "' moves " + std::to_string(m.registers()) +
                            " register(s) per thread, the vector has " +
                            std::to_string(vec.elements.size()) + where);
    if (mem.kind != litmus::Operand::Kind::Memory)
        l.fail(mem.loc, name + " addresses shared memory as [p]" + where);
    Address a = genericAddress(l, mem, {ir::Space::Shared, false});
    if (m.store) {
        ir::ValuePtr v = l.value(vec.elements[0]);
        for (std::size_t i = 1; i < vec.elements.size(); ++i)
            l.value(vec.elements[i]); // read: each must be defined or a constant
        ir::Event& e = l.issue({Tag::W});
        setWeak(e);
        l.access(e, a, ir::Proxy::Generic);
        e.written = v;
        return;
    }
    ir::Event& e = l.issue({Tag::R});
    setWeak(e);
    l.access(e, a, ir::Proxy::Generic);
    int id = e.id;
    for (const auto& r : vec.elements)
        l.define(r, Value::readOf(id));
}

namespace {

Value::Op plainValueOp(ptx::AtomOp op) {
    switch (op) {
    case ptx::AtomOp::And:
        return Value::Op::And;
    case ptx::AtomOp::Or:
        return Value::Op::Or;
    case ptx::AtomOp::Xor:
        return Value::Op::Xor;
    case ptx::AtomOp::Sub:
        return Value::Op::Sub;
    default: // add; min, max, inc and dec are built in reducedValue, exch and cas by the caller
        return Value::Op::Add;
    }
}

/** 1 when a < b, compared as the type says: unsigned for .u32 (.u64), else signed (.s32,
 *  .s64, and an untyped Dat3M access); on all 64 bits where `wide`. */
ir::ValuePtr less(bool isUnsigned, const ir::ValuePtr& a, const ir::ValuePtr& b,
                  bool wide = false) {
    if (wide) return Value::make(isUnsigned ? Value::Op::Ltu64 : Value::Op::Lt64, {a, b});
    return Value::make(isUnsigned ? Value::Op::Ltu : Value::Op::Lt, {a, b});
}

/** The 64-bit operation of a 32-bit one (add, sub, and, or, xor). */
Value::Op wideOp(Value::Op op) {
    switch (op) {
    case Value::Op::Sub:
        return Value::Op::Sub64;
    case Value::Op::And:
        return Value::Op::And64;
    case Value::Op::Or:
        return Value::Op::Or64;
    case Value::Op::Xor:
        return Value::Op::Xor64;
    default:
        return Value::Op::Add64;
    }
}

} // namespace

bool unsignedType(const std::vector<ptx::Type>& types) {
    return types.size() == 1 && types[0].kind == 'u';
}

bool wideType(const std::vector<ptx::Type>& types) {
    return types.size() == 1 && types[0].bits == 64;
}

ir::ValuePtr reducedValue(ptx::AtomOp op, bool isUnsigned, const ir::ValuePtr& old,
                          const ir::ValuePtr& b, bool wide) {
    const ir::ValuePtr zero = Value::makeConst(0), one = Value::makeConst(1);
    switch (op) {
    case ptx::AtomOp::Max: // "Integer operations": .u32 compares unsigned, .s32 signed
        return Value::make(Value::Op::Ite, {less(isUnsigned, old, b, wide), b, old});
    case ptx::AtomOp::Min:
        return Value::make(Value::Op::Ite, {less(isUnsigned, b, old, wide), b, old});
    case ptx::AtomOp::Inc:
        // "inc(r, s) = (r >= s) ? 0 : r+1;" ({Atom#}, {Red#}; .u32 only): unsigned
        return Value::make(Value::Op::Ite,
                           {less(true, old, b), Value::make(Value::Op::Add, {old, one}), zero});
    case ptx::AtomOp::Dec:
        // "dec(r, s) = (r==0 || r > s) ? s : r-1;" ({Atom#}, {Red#}; .u32 only): unsigned
        return Value::make(Value::Op::Ite,
                           {Value::make(Value::Op::LOr, {Value::make(Value::Op::Eq, {old, zero}),
                                                         less(true, b, old)}),
                            b, Value::make(Value::Op::Sub, {old, one})});
    default:
        return Value::make(wide ? wideOp(plainValueOp(op)) : plainValueOp(op), {old, b});
    }
}

ElementKind elementKind(ptx::HalfType half, const std::vector<ptx::Type>& types, bool flush) {
    switch (half) {
    case ptx::HalfType::F16:
    case ptx::HalfType::F16x2:
        return {false, &kF16, false};
    case ptx::HalfType::Bf16:
    case ptx::HalfType::Bf16x2:
        return {false, &kBF16, false};
    case ptx::HalfType::None:
        break;
    }
    if (types.size() == 1 && types[0] == ptx::Type{'f', 32}) return {false, &kF32, flush};
    return {unsignedType(types), nullptr, false, wideType(types)};
}

namespace {

/** The float operation on two elements of `f` (masked to its bits): .min/.max or .add. */
ir::ValuePtr floatElement(ptx::AtomOp op, const FloatFormat& f, bool flush, const ir::ValuePtr& old,
                          const ir::ValuePtr& b) {
    auto element = [&](const ir::ValuePtr& v) {
        return Value::make(Value::Op::And, {v, Value::makeConst(wrap32(f.mask()))});
    };
    if (op == ptx::AtomOp::Min || op == ptx::AtomOp::Max)
        return minMax(f, element(old), element(b), op == ptx::AtomOp::Max, false);
    return add(f, element(old), element(b), flush); // the decoders allow no other op
}

/** The high half of a word, shifted down. */
ir::ValuePtr highHalf(const ir::ValuePtr& v) {
    return Value::make(Value::Op::Lshr, {v, Value::makeConst(16)});
}

/** The word of two 16-bit halves, `low` first. */
ir::ValuePtr packHalves(const ir::ValuePtr& low, const ir::ValuePtr& high) {
    return Value::make(Value::Op::Or,
                       {low, Value::make(Value::Op::Mul, {high, Value::makeConst(65536)})});
}

/** The word with `low` (16 bits) in its low half and the high half of `high`. */
ir::ValuePtr withLowHalf(const ir::ValuePtr& high, const ir::ValuePtr& low) {
    return Value::make(
        Value::Op::Or,
        {Value::make(Value::Op::And, {high, Value::makeConst(wrap32(0xffff0000))}), low});
}

} // namespace

ir::ValuePtr reducedElement(ptx::AtomOp op, const ElementKind& kind, const ir::ValuePtr& old,
                            const ir::ValuePtr& b) {
    if (!kind.format) return reducedValue(op, kind.isUnsigned, old, b, kind.wide);
    const FloatFormat& f = *kind.format;
    if (f.mask() != 0xffff) return floatElement(op, f, kind.flush, old, b);
    // a 16-bit element at the cell's address: the cell's low half (little-endian); the high half
    // is memory the access does not touch and keeps its value
    return withLowHalf(old, floatElement(op, f, kind.flush, old, b));
}

ir::ValuePtr reducedPairOfHalves(ptx::AtomOp op, const ElementKind& kind, const ir::ValuePtr& old,
                                 const ir::ValuePtr& b) {
    const FloatFormat& f = *kind.format;
    ir::ValuePtr low = floatElement(op, f, kind.flush, old, b);
    return packHalves(low, floatElement(op, f, kind.flush, highHalf(old), highHalf(b)));
}

namespace {

/** What an atomic writes, given the value it read. */
using WrittenOf = std::function<ir::ValuePtr(const ir::ValuePtr& old)>;

/**
 * One atomic read-modify-write of `a` (named by `where`, `bytes` wide): a read and a write
 * joined by rmw, the write made only where `writes` (a failed cas does not write). Returns the
 * value read.
 */
ir::ValuePtr atomicAccess(Lowerer& l, const ptx::Atom& at, const Address& a,
                          const litmus::Operand& where, int bytes, ir::Scope scope, Sem rsem,
                          Sem wsem, const WrittenOf& written, const WrittenOf& writes = nullptr) {
    ir::Proxy proxy = at.name == ptx::AtomName::Suatom || at.name == ptx::AtomName::Sured
                          ? ir::Proxy::Surface
                          : ir::Proxy::Generic;
    // A reduction's strong read "does not form an acquire pattern" ({ReleaseAcquirePatterns},
    // {RedRead}): RED marks it for ptx.cat.
    bool reduction = at.name == ptx::AtomName::Red || at.name == ptx::AtomName::Sured;
    ir::Event& r = l.issue({Tag::R, Tag::RMW});
    if (reduction) r.tags.insert(Tag::RED);
    setOrdering(r, rsem, scope);
    l.access(r, a, proxy);
    l.noteWidth(r, where, bytes);
    int rid = r.id;
    ir::Event& w = l.issue({Tag::W, Tag::RMW});
    if (reduction) w.tags.insert(Tag::RED);
    setOrdering(w, wsem, scope);
    l.access(w, a, proxy);
    l.noteWidth(w, where, bytes);
    ir::ValuePtr old = Value::readOf(rid);
    w.written = written(old);
    if (writes) {
        ir::ValuePtr condition = writes(old);
        w.guard = w.guard ? Value::make(Value::Op::LAnd, {w.guard, condition}) : condition;
    }
    return old;
}

/**
 * The 16-bit float, packed and vector atomics ({Atom}, {Red}): "atom instruction on packed type
 * or vector type, accesses adjacent scalar elements in memory. In such cases, the atomicity is
 * guaranteed separately for each of the individual scalar elements; the entire atom is not
 * guaranteed to be atomic as a single access." Each element is an atomic read-modify-write of its
 * own to the next element of the array [a] names (2 bytes apart for 16-bit elements, 4 for
 * .f32); a packed register holds two elements, the first in its low half ("fA[0] = a[0:15];
 * fA[1] = a[16:31]", {HalfMin}), and so does a packed result. The elements follow one another in
 * program order; the text does not say how the elements of one instruction are ordered, which a
 * .release or .acquire would make observable, so only the relaxed forms are lowered (a scalar
 * .f16/.bf16 is one element: lowerAtomic's, with any .sem).
 */
void lowerElementwiseAtomic(Lowerer& l, const ptx::Atom& at) {
    auto [sem, scope] = ptx::effectiveOrdering(at.sem, at.scope, Sem::Relaxed);
    const std::string section = ptx::cite(at.returns() ? ptx::Sec::Atom : ptx::Sec::Red);
    if (sem != Sem::Relaxed)
        l.fail(l.inst().loc, "'" + l.inst().opcode +
                                 "': a packed or vector atomic accesses each element on its own, "
                                 "and the text does not say how their accesses are ordered; "
                                 "ptxmc checks the .relaxed forms only (" +
                                 section + ")");
    const bool returns = at.returns();
    const std::size_t first = returns ? 1 : 0;
    l.expectOperands(first + 2 + (at.cacheHint ? 1 : 0));
    const bool packed = at.packed();
    const int perRegister = packed ? 2 : 1;
    const int bytes = at.half == ptx::HalfType::None ? 4 : 2;
    Address a = genericAddress(l, l.operand(first), spaceOf(at.space));
    const bool global =
        l.program().locations[static_cast<std::size_t>(a.location)].space == ir::Space::Global;
    if (at.vec != 1 && !global)
        l.fail(l.operand(first).loc, std::string("\"") + (returns ? "atom" : "red") +
                                         " with vector type may be used only with .global "
                                         "space\" (" +
                                         section + ")");
    std::vector<ir::ValuePtr> inputs;
    for (const ir::ValuePtr& v : storedValues(l, l.operand(first + 1), at.vec)) {
        inputs.push_back(v);
        if (packed) inputs.push_back(highHalf(v));
    }
    const ElementKind kind = elementKind(at.half, at.types, !at.noftz && global);
    std::vector<ir::ValuePtr> olds;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        if (k == 0) l.checkAccessWidth(a, l.operand(first), bytes);
        Address element = k == 0 ? a : l.elementAfter(a, l.operand(first), int(k), bytes);
        ir::ValuePtr old = atomicAccess(
            l, at, element, l.operand(first), bytes, scope, Sem::Relaxed, Sem::Relaxed,
            [&](const ir::ValuePtr& o) { return reducedElement(at.op, kind, o, inputs[k]); });
        if (bytes == 2) old = Value::make(Value::Op::And, {old, Value::makeConst(0xffff)});
        olds.push_back(old);
    }
    if (!returns) return;
    std::vector<litmus::Operand> dests = vectorOperand(l, l.operand(0), at.vec);
    for (std::size_t r = 0; r < dests.size(); ++r) {
        const std::size_t k = r * perRegister;
        l.define(dests[r], packed ? packHalves(olds[k], olds[k + 1]) : olds[k]);
    }
}

} // namespace

/** atom (returns the old value) and red (no result): a read and a write joined by rmw. */
void lowerAtomic(Lowerer& l, const ptx::Atom& at) {
    if (at.vec != 1 || at.packed()) return lowerElementwiseAtomic(l, at);
    auto [sem, scope] = ptx::effectiveOrdering(at.sem, at.scope, Sem::Relaxed);
    bool returns = at.returns();
    std::size_t first = returns ? 1 : 0;
    bool cas = at.op == ptx::AtomOp::Cas;
    // {, cache_policy}: a hint only, read as an operand and nothing else
    l.expectOperands(first + (cas ? 3 : 2) + (at.cacheHint ? 1 : 0));
    Address a = genericAddress(l, l.operand(first), spaceOf(at.space));
    // 64-bit elements (.u64, .s64, .b64): their values are 64-bit words, an immediate taken as
    // written, and .add, .min, .max, the bitwise operations and .cas's comparison use every bit
    const bool wide = wideType(at.types);
    const bool isSigned = !at.types.empty() && at.types[0].kind == 's';
    auto operandValue = [&](const litmus::Operand& op) {
        return wide ? l.value64(op, isSigned) : l.narrowed(l.value(op));
    };
    ir::ValuePtr arg = operandValue(l.operand(first + 1));
    ir::ValuePtr casNew = cas ? operandValue(l.operand(first + 2)) : nullptr;
    Sem rsem = (sem == Sem::Acquire || sem == Sem::AcqRel) ? Sem::Acquire : Sem::Relaxed;
    Sem wsem = (sem == Sem::Release || sem == Sem::AcqRel) ? Sem::Release : Sem::Relaxed;
    // "The atom.add.f32 operation without .noftz, flushes subnormal inputs and results to
    // sign-preserving zero on global memory but supports subnormal inputs and results and
    // doesn't flush them to zero on shared memory" ({Atom#}; red likewise, {Red#})
    const bool global =
        l.program().locations[static_cast<std::size_t>(a.location)].space == ir::Space::Global;
    const ElementKind kind = elementKind(at.half, at.types, !at.noftz && global);
    // 16-bit elements (.f16, .bf16, and cas.b16, "atom.global.cas.b16"): the cell's low half,
    // at its address; the high half is memory the access does not touch
    const bool half = at.half != ptx::HalfType::None ||
                      (at.types.size() == 1 && at.types[0] == ptx::Type{'b', 16});
    auto low = [](const ir::ValuePtr& v) {
        return Value::make(Value::Op::And, {v, Value::makeConst(0xffff)});
    };
    WrittenOf written = [&](const ir::ValuePtr& old) {
        if (at.op == ptx::AtomOp::Exch) return arg;
        if (cas) return half ? withLowHalf(old, low(casNew)) : casNew;
        return reducedElement(at.op, kind, old, arg);
    };
    WrittenOf swaps = [&](const ir::ValuePtr& old) { // a failed cas does not write
        return half ? Value::make(Value::Op::Eq, {low(old), low(arg)})
                    : Value::make(wide ? Value::Op::Eq64 : Value::Op::Eq, {old, arg});
    };
    const int bytes = half ? 2 : at.types.empty() ? 4 : std::max(1, at.types[0].bits / 8);
    l.checkAccessWidth(a, l.operand(first), bytes);
    ir::ValuePtr old = atomicAccess(l, at, a, l.operand(first), bytes, scope, rsem, wsem, written,
                                    cas ? swaps : nullptr);
    if (half) old = low(old);
    if (returns) l.define(l.operand(0), old);
}

/**
 * red.async ({RedAsync#}, 9.4 text). .relaxed: "The reduce operation is a relaxed memory
 * operation" on shared memory of another CTA of the cluster, performed asynchronously (exec
 * events after the issue, as st.async's write), then "The complete-tx operation on the mbarrier
 * has .release semantics at .cluster scope" on the mbarrier of the destination's CTA; "red.async
 * is performed in the generic proxy". .release: "a strong memory operation with .release
 * semantics at the scope specified by .scope" on global memory, with no completion mechanism;
 * its read and write are issue-level events (a release orders every earlier operation of the
 * thread before it, as 8.8's "release asynchronous operation" does; program order also places
 * the thread's later accesses of the location after it, which the text leaves unordered).
 */
void lowerRedAsync(Lowerer& l, const ptx::RedAsync& r) {
    ir::ValuePtr arg;
    const bool wide = wideType(r.types); // .u64, .s64: every bit, an immediate as written
    const int bytes = r.types[0].bits / 8;
    if (r.sem == ptx::Sem::Release) {
        l.expectOperands(2);
        Address a = genericAddress(l, l.operand(0), spaceOf(ptx::StateSpace::Global));
        if (l.program().locations[static_cast<std::size_t>(a.location)].space != ir::Space::Global)
            l.fail(l.operand(0).loc, "red.async.release reduces global memory (" +
                                         ptx::cite(ptx::Sec::RedAsync) + ")");
        arg = wide ? l.value64(l.operand(1), r.types[0].kind == 's') : l.value(l.operand(1));
        // an atomic reduction: its read forms no acquire pattern ({RedRead})
        ir::Event& rd = l.issue({Tag::R, Tag::RMW, Tag::RED});
        setOrdering(rd, Sem::Relaxed, r.scope);
        l.access(rd, a, ir::Proxy::Generic);
        l.noteWidth(rd, l.operand(0), bytes);
        int rid = rd.id;
        ir::Event& w = l.issue({Tag::W, Tag::RMW, Tag::RED});
        setOrdering(w, Sem::Release, r.scope);
        l.access(w, a, ir::Proxy::Generic);
        l.noteWidth(w, l.operand(0), bytes);
        w.written = reducedValue(r.op, unsignedType(r.types), Value::readOf(rid), arg, wide);
        return;
    }
    l.expectOperands(3);
    Address a = l.address(l.operand(0), ir::Space::Shared);
    l.checkReach(a, l.operand(0), true);
    arg = wide ? l.value64(l.operand(1)) : l.value(l.operand(1));
    Address mb = l.address(l.operand(2), ir::Space::Mbarrier);
    l.checkReach(mb, l.operand(2), true);
    // "They belong to the same CTA. The CTA to which they belong is different from the CTA of the
    // executing thread, but must be within the same cluster. Otherwise, the behavior is undefined."
    if (mb.cta != a.cta)
        l.fail(l.operand(2).loc, "red.async's mbarrier must be in the destination's CTA (" +
                                     ptx::cite(ptx::Sec::RedAsync) + ")");
    if (a.cta == l.threadInfo().cta)
        l.fail(l.operand(0).loc, "red.async.relaxed reduces another CTA's shared memory: its own "
                                 "CTA's is undefined behaviour (" +
                                     ptx::cite(ptx::Sec::RedAsync) + ")");
    int issueId = l.issue({}).id;
    ir::Event& rd = l.exec(issueId, "read " + Lowerer::accessName(l.operand(0), a),
                           {Tag::R, Tag::RMW, Tag::RED});
    setOrdering(rd, Sem::Relaxed, ir::Scope::Cluster);
    l.access(rd, a, ir::Proxy::Generic);
    l.noteWidth(rd, l.operand(0), bytes);
    int rid = rd.id;
    ir::Event& w = l.exec(issueId, "write " + Lowerer::accessName(l.operand(0), a),
                          {Tag::W, Tag::RMW, Tag::RED});
    setOrdering(w, Sem::Relaxed, ir::Scope::Cluster);
    l.access(w, a, ir::Proxy::Generic);
    l.noteWidth(w, l.operand(0), bytes);
    w.written = reducedValue(r.op, unsignedType(r.types), Value::readOf(rid), arg, wide);
    // "completeCount argument equal to the amount of data stored"
    completeTxAtCluster(l, issueId, mb, bytes, false);
}

void lowerMembar(Lowerer& l, const ptx::Membar& m) {
    l.expectOperands(0);
    ir::Event& e = l.issue({Tag::F});
    setOrdering(e, Sem::Sc, m.scope);
}

namespace {

/** The state-space window tag of fence.proxy.async.SPACE (PTX ISA
 * #parallel-synchronization-and-communication-instructions-membar, #shared-state-space); none =
 * all. */
std::optional<Tag> windowOf(ptx::StateSpace s) {
    switch (s) {
    case ptx::StateSpace::Global:
        return Tag::PFW_GLOBAL;
    case ptx::StateSpace::Shared:
    case ptx::StateSpace::SharedCta:
        return Tag::PFW_SHARED_CTA;
    case ptx::StateSpace::SharedCluster:
        return Tag::PFW_SHARED_CLUSTER;
    case ptx::StateSpace::None:
        break;
    }
    return std::nullopt;
}

} // namespace

void lowerProxyFence(Lowerer& l, const ptx::ProxyFence& f) {
    if (f.readOnly) {
        // fence.proxy.async::generic.release.sync_restrict::shared::cluster::read.cluster (9.4,
        // {Membar#}): an async/generic proxy fence over the cluster's shared memory, then a
        // release fence whose effect "only applies to read operations performed on objects in
        // .shared::cluster state space" (FSR_READ_CLUSTER; "a non-cumulative fence operation":
        // ptx.cat anchors it at the thread's own reads)
        l.expectOperands(0);
        lowerProxyFence(l, ptx::ProxyFence{ptx::ProxyKind::Async, ptx::StateSpace::SharedCluster});
        ir::Event& e = l.issue({Tag::F, Tag::FSR_READ_CLUSTER, Tag::FSR_PROXY});
        setOrdering(e, Sem::Release, f.scope);
        return;
    }
    if (f.syncRestrict != ptx::StateSpace::None) {
        // fence.proxy.async::generic.{release,acquire}.sync_restrict::... ({Membar#}): an
        // async/generic proxy fence over the restricted window and a release (acquire) fence
        // restricted as fence.{release,acquire}.sync_restrict: the release form fences the
        // proxies before it releases, the acquire form acquires before it fences them.
        bool release = f.sem == ptx::Sem::Release;
        ptx::ProxyFence proxy{ptx::ProxyKind::Async, f.syncRestrict};
        ptx::Fence fence{release ? ptx::Sem::Release : ptx::Sem::Acquire, f.scope, false,
                         f.syncRestrict};
        if (release) lowerProxyFence(l, proxy);
        lowerFence(l, fence);
        // which acquire sequences its release reaches is decision Q24 (FSR_PROXY)
        l.program().events.back().tags.insert(Tag::FSR_PROXY);
        if (!release) lowerProxyFence(l, proxy);
        return;
    }
    ir::Event& e = l.issue({});
    switch (f.kind) {
    case ptx::ProxyKind::Alias:
        e.tags.insert(Tag::ALIASF);
        // fence.proxy.alias.{release,acquire}.sys (9.4 text): "A .release proxy fence can form a
        // release sequence that synchronizes with an acquire sequence that contains a .acquire
        // proxy fence" ({Membar#}): also a memory fence with that semantics, paired like the
        // tensormap ones (ptx.cat's proxy-release-pattern / proxy-acquire-pattern)
        if (f.sem != ptx::Sem::None) {
            e.tags.insert(Tag::F);
            e.tags.insert(Tag::PF);
            setOrdering(e, f.sem == ptx::Sem::Release ? Sem::Release : Sem::Acquire, f.scope);
        }
        break;
    case ptx::ProxyKind::Async:
        e.tags.insert(Tag::PF);
        e.tags.insert(Tag::PF_ASYNC);
        if (auto w = windowOf(f.space)) e.tags.insert(*w);
        break;
    case ptx::ProxyKind::Surface:
        e.tags.insert(Tag::PF);
        e.tags.insert(Tag::PF_SURFACE);
        break;
    case ptx::ProxyKind::Texture:
        e.tags.insert(Tag::PF);
        e.tags.insert(Tag::PF_TEXTURE);
        break;
    case ptx::ProxyKind::Constant:
        e.tags.insert(Tag::PF);
        e.tags.insert(Tag::PF_CONSTANT);
        break;
    case ptx::ProxyKind::GenericFabric:
    case ptx::ProxyKind::FabricGeneric:
    case ptx::ProxyKind::FabricFabric:
        // fence.proxy.{generic::fabric,fabric::generic,fabric::fabric}.alias.{release,acquire}.sys
        // (9.3, {Membar#}): "A uni-directional proxy ordering from the from-proxykind to the
        // to-proxykind establishes ordering between a prior memory access performed via the
        // from-proxykind and a subsequent memory access performed via the to-proxykind". One side
        // is the fabric proxy, which no litmus instruction accesses, so its proxy ordering covers
        // no access here: no alias or async coverage (not ALIASF, no PF_* proxy). What remains is
        // "A .release proxy fence can form a release sequence that synchronizes with an acquire
        // sequence that contains a .acquire proxy fence": a fence at .sys with its .sem, paired
        // as the alias and tensormap ones (ptx.cat's proxy-release-pattern/proxy-acquire-pattern)
        e.tags.insert(Tag::F);
        e.tags.insert(Tag::PF);
        setOrdering(e, f.sem == ptx::Sem::Release ? Sem::Release : Sem::Acquire, f.scope);
        break;
    case ptx::ProxyKind::Tensormap: {
        // Uni-directional, generic to tensormap; also a memory fence: "A .release proxy fence
        // can form a release sequence that synchronizes with an acquire sequence that contains
        // a .acquire proxy fence" (PTX ISA
        // #parallel-synchronization-and-communication-instructions-membar).
        bool acquire = f.sem == ptx::Sem::Acquire;
        int id = e.id;
        l.expectOperands(acquire ? 2 : 0);
        ir::Event& fence = l.program().events[static_cast<std::size_t>(id)];
        fence.tags.insert(Tag::F);
        fence.tags.insert(Tag::PF);
        fence.tags.insert(Tag::PF_TENSORMAP);
        setOrdering(fence, acquire ? Sem::Acquire : Sem::Release, f.scope);
        if (!acquire) return;
        // .acquire names the tensor map it orders: [addr], 128 in the global state space
        const auto& size = l.operand(1);
        if (size.kind != litmus::Operand::Kind::Integer || size.value != 128)
            l.fail(size.loc, "the only size fence.proxy.tensormap::generic.acquire takes is 128");
        Address a = genericAddress(l, l.operand(0), SpaceQualifier{ir::Space::Global, false});
        ir::Event& named = l.program().events[static_cast<std::size_t>(id)];
        named.tags.insert(Tag::PFW_LOC);
        named.location = a.location;
        named.vaddr = a.vaddr;
        named.space = ir::Space::Global;
        return;
    }
    }
    l.expectOperands(0);
}

/**
 * tensormap.replace (PTX ISA #data-movement-and-conversion-instructions-tensormap-replace):
 * "treated as a weak memory operation, on the entire 1024-bit opaque tensor-map object": a weak
 * generic write of the new value to the location standing for the tensor map (every field is one
 * write to the same object).
 */
void lowerTensormapReplace(Lowerer& l, const ptx::TensormapReplace& r) {
    bool ordinal = r.field == "box_dim" || r.field == "global_dim" || r.field == "global_stride" ||
                   r.field == "element_stride";
    l.expectOperands(ordinal ? 3 : 2);
    Address a = genericAddress(l, l.operand(0), spaceOf(r.space));
    ir::ValuePtr v = l.value(l.operand(ordinal ? 2 : 1));
    ir::Event& w = l.issue({Tag::W});
    setOrdering(w, Sem::Weak, ir::Scope::None);
    l.access(w, a, ir::Proxy::Generic);
    w.written = v;
}

/**
 * tensormap.cp_fenceproxy (PTX ISA
 * #parallel-synchronization-and-communication-instructions-tensormap-cp-fenceproxy): copies the
 * tensor map from shared to global memory (a weak generic read and write), then a release tensormap
 * proxy fence at the written scope whose window is the destination.
 */
void lowerTensormapCopy(Lowerer& l, const ptx::TensormapCopy& c) {
    l.expectOperands(3);
    const auto& size = l.operand(2);
    if (size.kind != litmus::Operand::Kind::Integer || size.value != 128)
        l.fail(size.loc, "tensormap.cp_fenceproxy copies 128 bytes: its size operand is 128");
    Address dst = genericAddress(l, l.operand(0), SpaceQualifier{ir::Space::Global, false});
    Address src = genericAddress(l, l.operand(1), SpaceQualifier{ir::Space::Shared, false});
    if (src.cta != l.thread().cta)
        l.fail(l.operand(1).loc, "tensormap.cp_fenceproxy reads the executing CTA's shared memory");
    ir::Event& r = l.issue({Tag::R});
    setOrdering(r, Sem::Weak, ir::Scope::None);
    l.access(r, src, ir::Proxy::Generic);
    int readId = r.id;
    ir::Event& w = l.issue({Tag::W});
    setOrdering(w, Sem::Weak, ir::Scope::None);
    l.access(w, dst, ir::Proxy::Generic);
    w.written = Value::readOf(readId);
    // "a uni-directional proxy release pattern on the ordering from the copy operation to the
    // subsequent access performed in the tensormap proxy on the address dst"
    // ({TensormapCpFenceproxy})
    ir::Event& f = l.issue({Tag::F, Tag::PF, Tag::PF_TENSORMAP, Tag::PFW_LOC});
    setOrdering(f, Sem::Release, c.scope);
    f.location = dst.location;
    f.vaddr = dst.vaddr;
    f.space = ir::Space::Global;
}

void lowerFence(Lowerer& l, const ptx::Fence& f) {
    l.expectOperands(0);
    if (f.mbarrierInit) {
        // A release for the thread's prior mbarrier.init only, at cluster scope: not a memory
        // fence (F). The engines place each init before later operations on its object by
        // mbarrier order, so no model check needs it yet; it is an event so that one can.
        ir::Event& e = l.issue({Tag::MB_INIT_FENCE, Tag::Release, Tag::CLUSTER});
        e.sem = Sem::Release;
        e.scope = ir::Scope::Cluster;
        return;
    }
    ir::Event& e = l.issue({Tag::F});
    // fence without .sem is fence.acq_rel ({Membar#}); fence.acquire and fence.release are the
    // acquire and release memory fences of the 8.8 patterns ({ReleaseAcquirePatterns#})
    Sem sem = f.sem == ptx::Sem::Sc        ? Sem::Sc
              : f.sem == ptx::Sem::Acquire ? Sem::Acquire
              : f.sem == ptx::Sem::Release ? Sem::Release
                                           : Sem::AcqRel;
    setOrdering(e, sem, f.scope);
    if (f.syncRestrict == ptx::StateSpace::SharedCta) e.tags.insert(Tag::FSR_SHARED_CTA);
    if (f.syncRestrict == ptx::StateSpace::SharedCluster) e.tags.insert(Tag::FSR_SHARED_CLUSTER);
}

namespace {

/** How many events tagged `part` of barrier `id` the current thread has so far. */
int barrierCount(Lowerer& l, Tag part, int id) {
    int n = 0;
    for (int ev : l.threadInfo().events) {
        const auto& e = l.program().events[static_cast<std::size_t>(ev)];
        if (e.has(part) && e.barrierId == id) ++n;
    }
    return n;
}

ir::Event& barrierEvent(Lowerer& l, Tag part, int id, int instance, ir::Scope scope) {
    ir::Event& e = l.issue({Tag::BAR, part});
    e.barrierId = id;
    e.barrierInstance = instance;
    e.scope = scope;
    e.tags.insert(scope == ir::Scope::Cluster ? Tag::CLUSTER : Tag::CTA);
    if (part == Tag::BAR_WAIT) {
        e.tags.insert(Tag::BLOCKING);
        e.blocking = true;
    }
    return e;
}

/**
 * barrier.cluster.arrive / wait (PTX ISA
 * #parallel-synchronization-and-communication-instructions-barrier-cluster): every thread of the
 * cluster arrives, then waits for all arrivals; the k-th arrive and the k-th wait of each thread
 * form instance k. A thread alternates them. The arrive is a release unless .relaxed; the wait an
 * acquire.
 */
void lowerClusterBarrier(Lowerer& l, const ptx::Barrier& b) {
    l.expectOperands(0);
    const int id = ir::kClusterBarrier;
    int arrived = barrierCount(l, Tag::BAR_ARRIVE, id);
    int waited = barrierCount(l, Tag::BAR_WAIT, id);
    const std::string section = " (" + ptx::cite(ptx::Sec::BarrierCluster) + ")";
    if (b.arrive && arrived > waited)
        l.fail(l.inst().loc, "barrier.cluster.arrive again before barrier.cluster.wait: a thread "
                             "alternates them" +
                                 section);
    if (b.wait && arrived == waited)
        l.fail(l.inst().loc,
               "barrier.cluster.wait without a barrier.cluster.arrive before it" + section);
    ir::Event& e = barrierEvent(l, b.arrive ? Tag::BAR_ARRIVE : Tag::BAR_WAIT, id,
                                b.arrive ? arrived : waited, ir::Scope::Cluster);
    if (b.arrive && b.sem == ptx::Sem::Relaxed) {
        e.sem = Sem::Relaxed;
        e.tags.insert(Tag::Relaxed); // no ordering: it leaves syncbar (ir/BaseRelations.cpp)
    } else {
        e.sem = b.arrive ? Sem::Release : Sem::Acquire;
    }
}

} // namespace

void lowerBarrier(Lowerer& l, const ptx::Barrier& b) {
    if (b.cluster) return lowerClusterBarrier(l, b);
    // bar.red d, a{, b}, {!}c: the destination first and the predicate last, around bar.sync's
    // operands
    const std::size_t first = b.red ? 1 : 0;
    const std::size_t own = l.inst().operands.size() - (b.red ? 2 : 0);
    if (l.inst().operands.size() < first + 1 || own < 1 || own > 2)
        l.fail(l.inst().loc, b.red
                                 ? "bar.red takes a destination, a barrier number, an optional "
                                   "thread count and a predicate"
                                 : "bar.sync takes a barrier number and an optional thread count");
    if (b.arrive && own != 2)
        l.fail(l.inst().loc, "bar.arrive takes a barrier number and a thread count (" +
                                 ptx::cite(ptx::Sec::BarBarrier) +
                                 ": b is required for bar.arrive)");
    const auto& id = l.operand(first);
    if (id.kind != litmus::Operand::Kind::Integer || id.value < 0 || id.value > 15)
        l.fail(id.loc, "barrier number must be an integer in [0, 15]");
    // A litmus thread stands for a warp: a thread count of 32*k means k litmus threads.
    int warps = 0;
    if (own == 2) {
        const auto& count = l.operand(first + 1);
        if (count.kind != litmus::Operand::Kind::Integer || count.value <= 0 ||
            count.value % 32 != 0 || count.value > 1024)
            l.fail(count.loc, "the thread count must be a positive multiple of 32 (one litmus "
                              "thread per warp), at most 1024");
        warps = static_cast<int>(count.value / 32);
    }
    // The k-th bar.sync or bar.arrive N of each participant is instance k of barrier N.
    const int instance = barrierCount(l, Tag::BAR_ARRIVE, static_cast<int>(id.value));
    // A barrier is an arrival and a completion: every participant's arrival precedes every
    // participant's completion (PTX ISA
    // #parallel-synchronization-and-communication-instructions-bar), which two events per
    // thread express; bar.arrive is the arrival alone (a producer signalling consumers that
    // bar.sync).
    int arrival = -1;
    for (Tag part : {Tag::BAR_ARRIVE, Tag::BAR_WAIT}) {
        if (part == Tag::BAR_WAIT && b.arrive) break;
        ir::Event& e = barrierEvent(l, part, static_cast<int>(id.value), instance, ir::Scope::Cta);
        e.barrierWarps = warps;
        if (part == Tag::BAR_ARRIVE) arrival = e.id;
    }
    // "The c predicate (or its complement) from all threads in the CTA are combined using the
    // specified reduction operator. Once the barrier count is reached, the final value is
    // written to the destination register in all threads waiting at the barrier": the value
    // is known once every thread of the instance is lowered (Lowerer::resolveBarrierReductions).
    if (b.red)
        l.addBarrierReduction(arrival, b.redOp, l.value(l.operand(l.inst().operands.size() - 1)),
                              l.operand(0));
}

void lowerArithmetic(Lowerer& l, const ptx::Arith& a) {
    l.expectOperands(3);
    static const std::array<Value::Op, 6> ops = {Value::Op::Add, Value::Op::Sub, Value::Op::Mul,
                                                 Value::Op::And, Value::Op::Or,  Value::Op::Xor};
    // .u64, .s64, .b64: on all 64 bits, an immediate taken as written (mul.lo keeps the low 64)
    static const std::array<Value::Op, 6> ops64 = {Value::Op::Add64, Value::Op::Sub64,
                                                   Value::Op::Mul64, Value::Op::And64,
                                                   Value::Op::Or64,  Value::Op::Xor64};
    const bool wide = !a.types.empty() && a.types[0].bits == 64;
    const auto i = static_cast<std::size_t>(a.op);
    if (wide) {
        const bool isSigned = a.types[0].kind == 's';
        l.define(l.operand(0), Value::make(ops64[i], {l.value64(l.operand(1), isSigned),
                                                      l.value64(l.operand(2), isSigned)}));
        return;
    }
    l.define(l.operand(0), Value::make(ops[i], {l.value(l.operand(1)), l.value(l.operand(2))}));
}

} // namespace ptxmc::lower
