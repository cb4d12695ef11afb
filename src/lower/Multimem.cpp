// multimem.ld_reduce, multimem.st, multimem.red, multimem.st.async and multimem.red.async: one
// access per location the multimem address points to (per element of a vector), in no order
// among themselves.
#include "lower/Floats.hpp"
#include "lower/Instructions.hpp"
#include "ptx/Sections.hpp"

#include <algorithm>

namespace ptxmc::lower {

using ir::Sem;
using ir::Tag;
using ir::Value;

namespace {

/**
 * The semantics each access of the instruction has: "Optional qualifiers .ldsem, .stsem and
 * .redsem specify the memory synchronizing effect ... If explicit semantics qualifiers are not
 * specified, then multimem.ld_reduce and multimem.st default to .weak and multimem.red defaults
 * to .relaxed"; "If the .scope qualifier is not specified for multimem.red then .sys scope is
 * assumed by default" ({Multimem#}).
 */
ptx::Ordering orderingOf(const ptx::Multimem& m) {
    const bool red = m.kind == ptx::MultimemKind::Red || m.kind == ptx::MultimemKind::RedAsync;
    ptx::Ordering o = ptx::effectiveOrdering(m.sem, m.scope, red ? Sem::Relaxed : Sem::Weak);
    if (red && m.scope == ptx::Scope::None) o.scope = ptx::Scope::Sys;
    return o;
}

/** One access of the operation: element `element` (of a vector) at location `location`. */
struct Slot {
    std::size_t element, location;
};

/** More accesses than this in a release or acquire operation: an error (their orders, each
 *  explored, grow as the factorial). */
constexpr std::size_t kMaxOrderedAccesses = 4;

/**
 * `count` options, one of which the execution picks (choices it makes, as nondet.pred's): the
 * condition of each, a binary number whose values past the last option name the first ones
 * again. One option: no condition (null).
 */
std::vector<ir::ValuePtr> pickOne(Lowerer& l, std::size_t count, const std::string& what) {
    std::vector<ir::ValuePtr> bits;
    while ((std::size_t{1} << bits.size()) < count)
        bits.push_back(l.newChoice(l.inst().loc, l.inst().opcode + " (" + what + ")"));
    std::vector<ir::ValuePtr> when(count);
    for (std::size_t pattern = 0; pattern < (std::size_t{1} << bits.size()); ++pattern) {
        ir::ValuePtr all;
        for (std::size_t b = 0; b < bits.size(); ++b) {
            ir::ValuePtr bit =
                (pattern >> b & 1U) != 0U ? bits[b] : Value::make(Value::Op::Not, {bits[b]});
            all = all ? Value::make(Value::Op::LAnd, {all, bit}) : bit;
        }
        ir::ValuePtr& w = when[pattern % count];
        w = w ? Value::make(Value::Op::LOr, {w, all}) : all;
    }
    return when;
}

/**
 * The orders in which the operation may perform its `n` accesses, each with the condition
 * under which the execution takes it. Only a release or acquire access tells the orders apart
 * (it orders the thread's accesses before it, or after it): weak and relaxed accesses of
 * distinct locations, adjacent in program order, are ordered by nothing of ptx.cat among
 * themselves but program order's own place in causality, whose chains from one of them to
 * another location pass through a release or acquire. Those take one order.
 */
std::vector<std::pair<std::vector<std::size_t>, ir::ValuePtr>>
accessOrders(Lowerer& l, std::size_t n, bool strong) {
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
        order[i] = i;
    if (!strong) return {{order, nullptr}};
    if (n > kMaxOrderedAccesses)
        l.fail(l.inst().loc, "'" + l.inst().opcode + "' makes " + std::to_string(n) +
                                 " release or acquire accesses (elements times locations), each "
                                 "order of which is explored: ptxmc takes at most " +
                                 std::to_string(kMaxOrderedAccesses) +
                                 " (declare the multimem address with fewer locations, or use "
                                 ".relaxed with a fence)");
    std::vector<std::vector<std::size_t>> orders;
    do {
        orders.push_back(order);
    } while (std::next_permutation(order.begin(), order.end()));
    const std::vector<ir::ValuePtr> when = pickOne(l, orders.size(), "order");
    std::vector<std::pair<std::vector<std::size_t>, ir::ValuePtr>> out;
    for (std::size_t i = 0; i < orders.size(); ++i)
        out.emplace_back(orders[i], when[i]);
    return out;
}

/** A new access of the operation, taken where `when` (its order's condition) holds. */
ir::Event& access(Lowerer& l, int& group, const ir::ValuePtr& when,
                  std::initializer_list<Tag> tags) {
    ir::Event& e = l.issue(tags);
    if (group < 0) group = e.id;
    e.multimemGroup = group;
    if (when) e.guard = e.guard ? Value::make(Value::Op::LAnd, {e.guard, when}) : when;
    return e;
}

/**
 * The element type's arithmetic and layout. "A memory operation on a packed data type is
 * modelled as a pair of equivalent memory operations on the scalar data type, executed in an
 * unspecified order" (8.2.5 #memory-operations-on-packed-data-types): a .f16x2/.bf16x2
 * register is two 2-byte scalars, an .e5m2x2/.e5m2x4 (.e4m3) register two or four bytes, each
 * accessed on its own at consecutive addresses (low first, little-endian), as atom's packed
 * forms are.
 */
struct Elements {
    ElementKind kind;
    bool accF32 = false; ///< ld_reduce's .acc::f32
    int scalarBytes = 4; ///< of one scalar in memory (a cell)
    int perRegister = 1; ///< scalars one register of the vector packs
};

Elements elementsOf(const ptx::Multimem& m) {
    Elements e;
    // "subnormal numbers are supported" by the float add (PTX ISA 9.7.3.1, 9.7.4.1) and the
    // text gives multimem's .add no flush to zero: nothing is flushed
    e.kind = elementKind(m.half, m.types, false);
    e.accF32 = m.accF32;
    const int bits = m.elementBits();
    const int scalarBits = m.half != ptx::HalfType::None ? 16
                           : m.fp8 != ptx::Fp8Type::None ? 8
                                                         : bits;
    e.scalarBytes = std::max(1, scalarBits / 8);
    e.perRegister = bits / scalarBits;
    return e;
}

/** Scalar `h` of a register holding `perRegister` of `bits` bits each (low first). */
ir::ValuePtr scalarOf(const ir::ValuePtr& v, int h, int bits) {
    const ir::ValuePtr shifted =
        h == 0 ? v : Value::make(Value::Op::Lshr, {v, Value::makeConst(h * bits)});
    return Value::make(Value::Op::And, {shifted, Value::makeConst((std::int64_t{1} << bits) - 1)});
}

ir::ValuePtr low16(const ir::ValuePtr& v) {
    return Value::make(Value::Op::And, {v, Value::makeConst(0xffff)});
}

/**
 * The .add of `values` (one float each, in the element's format) in `order`, accumulated in
 * binary32 with .acc::f32 ("changes precision to .f32") and rounded to the element's format at
 * the end, else in the element's own precision.
 */
ir::ValuePtr floatSum(const Elements& e, const std::vector<ir::ValuePtr>& values,
                      const std::vector<std::size_t>& order) {
    const FloatFormat& f = *e.kind.format;
    const bool widen = e.accF32 && &f != &kF32;
    const bool bf16 = &f == &kBF16;
    auto in = [&](const ir::ValuePtr& v) {
        if (!widen) return v;
        return Value::make(bf16 ? Value::Op::BF16ToF32 : Value::Op::F16ToF32, {v});
    };
    const FloatFormat& acc = widen ? kF32 : f;
    ir::ValuePtr sum = in(values[order[0]]);
    for (std::size_t i = 1; i < order.size(); ++i)
        sum = add(acc, sum, in(values[order[i]]), false);
    if (!widen) return sum;
    return Value::make(bf16 ? Value::Op::F32ToBF16 : Value::Op::F32ToF16, {sum});
}

/** More locations than this in a floating-point ld_reduce.add: an error (each accumulation
 *  order is explored). */
constexpr std::size_t kMaxSummedLocations = 3;

/**
 * The reduction of one scalar element over the values the locations hold. Integer operations
 * and the float .min/.max give one result in any order. A float .add does not: "reduction
 * operation specified by .op on the multiple data loaded" ({Multimem}) gives no order, so with
 * three locations each of the three sums that first add two of them is an execution's choice.
 */
ir::ValuePtr reduceScalar(Lowerer& l, const ptx::Multimem& m, const Elements& e,
                          const std::vector<ir::ValuePtr>& values) {
    if (!e.kind.format || m.op != ptx::AtomOp::Add) {
        ir::ValuePtr r = values[0];
        for (std::size_t i = 1; i < values.size(); ++i)
            r = reducedElement(m.op, e.kind, r, values[i]);
        return e.kind.format && e.kind.format->mask() == 0xffff ? low16(r) : r;
    }
    std::vector<std::size_t> order(values.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    if (values.size() <= 2) return floatSum(e, values, order);
    if (values.size() > kMaxSummedLocations)
        l.fail(l.inst().loc, "'" + l.inst().opcode + "' adds floats from " +
                                 std::to_string(values.size()) +
                                 " locations in an order the text does not give, each explored: "
                                 "ptxmc takes at most " +
                                 std::to_string(kMaxSummedLocations));
    const std::vector<std::vector<std::size_t>> sums = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}};
    const std::vector<ir::ValuePtr> when = pickOne(l, sums.size(), "accumulation order");
    ir::ValuePtr r = floatSum(e, values, sums[0]);
    for (std::size_t i = 1; i < sums.size(); ++i)
        r = Value::make(Value::Op::Ite, {when[i], floatSum(e, values, sums[i]), r});
    return r;
}

/** The value of register `op` an access moves: 64 bits of an .f64 or 64-bit integer, else
 *  its 32-bit word (the scalars are cut out of it: scalarOf). */
ir::ValuePtr operandValue(Lowerer& l, const ptx::Multimem& m, const litmus::Operand& op) {
    if (m.elementBits() == 64) return l.value64(op, !m.floating() && m.types.at(0).kind == 's');
    return l.value(op);
}

/** The register whose scalars are `scalars` (low first, `bits` each). */
ir::ValuePtr packed(const std::vector<ir::ValuePtr>& scalars, int bits) {
    ir::ValuePtr r = scalars[0];
    for (std::size_t h = 1; h < scalars.size(); ++h)
        r = Value::make(
            Value::Op::Or,
            {r, Value::make(Value::Op::Mul,
                            {scalars[h], Value::makeConst(std::int64_t{1} << (bits * h))})});
    return r;
}

} // namespace

/**
 * "The multimem.* operations operate on multimem addresses and accesses all of the multiple
 * memory locations which the multimem address points to" ({Multimem#}): each location is
 * accessed by a memory operation of its own with the instruction's semantics, through the
 * multimem address (a virtual address of its own: a virtual alias of the location, {Proxies}).
 * A .vec access does so for each of its elements, the consecutive elements of each location.
 * Program order "forms a total order over the operations performed by the thread"
 * ({ProgramOrder}), and the text does not say in which order one instruction performs them (the
 * elements of a vector access are likewise "executed in an unspecified order",
 * {MemoryOperationsOnVectorDataTypes}): every order is explored, each an execution's choice,
 * where a release or acquire access tells them apart (accessOrders). Whether the locations'
 * coherence orders agree is decision Q25 (model/decisions.cat).
 * - ld_reduce: "loading of data from all of the multiple memory locations ... reduction operation
 *   specified by .op on the multiple data loaded": a read per location, the result the reduction
 *   of the values read (reduceScalar), per element.
 * - st, st.async ({MultimemStAsync#}, "a strong memory operation with .release semantics"): a
 *   write per location.
 * - red, red.async ({MultimemRedAsync#}): a read-modify-write per location; the reads of a
 *   reduction form no acquire pattern ({RedRead}). As red.async.release, the asynchronous forms'
 *   accesses are issue-level: the release orders the thread's earlier operations before them.
 */
void lowerMultimem(Lowerer& l, const ptx::Multimem& m) {
    using K = ptx::MultimemKind;
    l.expectOperands(2);
    const bool load = m.kind == K::LdReduce;
    const bool store = m.kind == K::St || m.kind == K::StAsync;
    const litmus::Operand& addr = l.operand(load ? 1 : 0);
    const Elements e = elementsOf(m);
    const int bits = e.scalarBytes * 8;
    const auto scalars = static_cast<std::size_t>(m.vec * e.perRegister);
    std::vector<std::vector<Address>> at(scalars); // at[scalar][location]
    for (std::size_t j = 0; j < scalars; ++j) {
        at[j] = l.multimemAddresses(addr, static_cast<int>(j), e.scalarBytes);
        for (const Address& a : at[j]) {
            if (store)
                l.checkStoreWidth(a, addr, e.scalarBytes);
            else
                l.checkAccessWidth(a, addr, e.scalarBytes);
        }
    }
    const ptx::Ordering o = orderingOf(m);
    const std::vector<litmus::Operand> registers = vectorOperand(l, l.operand(load ? 0 : 1), m.vec);
    std::vector<ir::ValuePtr> b; // per scalar: the value it moves (st) or reduces with (red)
    if (!load)
        for (const litmus::Operand& r : registers) {
            const ir::ValuePtr v = operandValue(l, m, r);
            for (int h = 0; h < e.perRegister; ++h)
                b.push_back(bits >= 32 ? v : scalarOf(v, h, bits));
        }
    std::vector<Slot> slots;
    for (std::size_t j = 0; j < scalars; ++j)
        for (std::size_t i = 0; i < at[j].size(); ++i)
            slots.push_back({j, i});
    const bool strong = o.sem == Sem::Release || o.sem == Sem::Acquire;
    // decision Q25 relates the accesses of one scalar at its several locations
    // (multimem-sibling), not those of different scalars of a vector
    std::vector<int> group(scalars, -1);
    std::vector<ir::ValuePtr> result(scalars); // ld_reduce: per scalar, the order taken's value
    for (const auto& [order, when] : accessOrders(l, slots.size(), strong)) {
        std::vector<std::vector<ir::ValuePtr>> read(scalars,
                                                    std::vector<ir::ValuePtr>(at[0].size()));
        for (std::size_t s : order) {
            const auto [j, i] = slots[s];
            const Address& a = at[j][i];
            if (load) {
                ir::Event& r = access(l, group[j], when, {Tag::R});
                setOrdering(r, o.sem, o.scope);
                l.access(r, a, ir::Proxy::Generic);
                l.noteWidth(r, addr, e.scalarBytes);
                read[j][i] = Value::readOf(r.id);
            } else if (store) {
                ir::Event& w = access(l, group[j], when, {Tag::W});
                setOrdering(w, o.sem, o.scope);
                l.access(w, a, ir::Proxy::Generic);
                l.noteWidth(w, addr, e.scalarBytes);
                w.written = m.floating() ? b[j] : subWordValue(b[j], m.types.at(0), false);
            } else {
                ir::Event& r = access(l, group[j], when, {Tag::R, Tag::RMW, Tag::RED});
                setOrdering(r, Sem::Relaxed, o.scope);
                l.access(r, a, ir::Proxy::Generic);
                l.noteWidth(r, addr, e.scalarBytes);
                const int readId = r.id;
                ir::Event& w = access(l, group[j], when, {Tag::W, Tag::RMW, Tag::RED});
                setOrdering(w, o.sem, o.scope);
                l.access(w, a, ir::Proxy::Generic);
                l.noteWidth(w, addr, e.scalarBytes);
                w.written = reducedElement(m.op, e.kind, Value::readOf(readId), b[j]);
            }
        }
        if (!load) continue;
        for (std::size_t j = 0; j < scalars; ++j) {
            const ir::ValuePtr reduced = reduceScalar(l, m, e, read[j]);
            result[j] =
                result[j] ? Value::make(Value::Op::Ite, {when, reduced, result[j]}) : reduced;
        }
    }
    if (!load) return;
    for (std::size_t k = 0; k < registers.size(); ++k) {
        const auto first = result.begin() + static_cast<std::ptrdiff_t>(k) * e.perRegister;
        l.define(registers[k], packed({first, first + e.perRegister}, bits));
    }
}

} // namespace ptxmc::lower
