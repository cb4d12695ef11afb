// multimem.ld_reduce, multimem.st, multimem.red, multimem.st.async and multimem.red.async: one
// access per location the multimem address points to, in no order among themselves.
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

/** The locations [a] points to, each wide enough for the access (a store may be narrower). */
std::vector<Address> targets(Lowerer& l, const litmus::Operand& op, int bytes, bool store) {
    std::vector<Address> out = l.multimemAddresses(op);
    for (const Address& a : out) {
        if (store)
            l.checkStoreWidth(a, op, bytes);
        else
            l.checkAccessWidth(a, op, bytes);
    }
    return out;
}

/** More locations than this: an error (their orders, each explored, grow as the factorial). */
constexpr std::size_t kMaxOrderedLocations = 3;

/**
 * The orders in which the operation may access its locations, each with the condition under
 * which the execution takes it: every permutation, picked by choices the execution makes (as
 * nondet.pred's), a binary number whose values past the last order name the first ones again.
 */
std::vector<std::pair<std::vector<std::size_t>, ir::ValuePtr>> accessOrders(Lowerer& l,
                                                                            std::size_t n) {
    if (n > kMaxOrderedLocations)
        l.fail(l.inst().loc, "'" + l.inst().opcode + "' accesses " + std::to_string(n) +
                                 " locations, each order of which is explored: ptxmc takes at "
                                 "most " +
                                 std::to_string(kMaxOrderedLocations) +
                                 " (declare the multimem address with fewer locations)");
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
        order[i] = i;
    std::vector<std::vector<std::size_t>> orders;
    do {
        orders.push_back(order);
    } while (std::next_permutation(order.begin(), order.end()));
    std::vector<ir::ValuePtr> bits;
    while ((std::size_t{1} << bits.size()) < orders.size())
        bits.push_back(l.newChoice(l.inst().loc, l.inst().opcode + " (order)"));
    std::vector<ir::ValuePtr> when(orders.size());
    for (std::size_t pattern = 0; pattern < (std::size_t{1} << bits.size()); ++pattern) {
        ir::ValuePtr all;
        for (std::size_t b = 0; b < bits.size(); ++b) {
            ir::ValuePtr bit =
                (pattern >> b & 1U) != 0U ? bits[b] : Value::make(Value::Op::Not, {bits[b]});
            all = all ? Value::make(Value::Op::LAnd, {all, bit}) : bit;
        }
        ir::ValuePtr& w = when[pattern % orders.size()];
        w = w ? Value::make(Value::Op::LOr, {w, all}) : all;
    }
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

} // namespace

/**
 * "The multimem.* operations operate on multimem addresses and accesses all of the multiple
 * memory locations which the multimem address points to" ({Multimem#}): each location is
 * accessed by a memory operation of its own with the instruction's semantics, through the
 * multimem address (a virtual address of its own: a virtual alias of the location, {Proxies}).
 * Program order "forms a total order over the operations performed by the thread"
 * ({ProgramOrder}), and the text does not say in which order one instruction performs them (the
 * elements of a vector access are likewise "executed in an unspecified order",
 * {MemoryOperationsOnVectorDataTypes}): every order is explored, each an execution's choice.
 * Whether the locations' coherence orders agree is decision Q25 (model/decisions.cat).
 * - ld_reduce: "loading of data from all of the multiple memory locations ... reduction operation
 *   specified by .op on the multiple data loaded": a read per location, the result the reduction
 *   of the values read, in the declaration's order.
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
    const ptx::Type type = m.types.at(0);
    const int bytes = std::max(1, type.bits / 8);
    const std::vector<Address> locations = targets(l, addr, bytes, store);
    const ptx::Ordering o = orderingOf(m);
    const bool isUnsigned = unsignedType(m.types);
    const bool wide = bytes == 8; // 64-bit values: every bit, an immediate as written
    const ir::ValuePtr b =
        load ? nullptr : (wide ? l.value64(l.operand(1), type.kind == 's') : l.value(l.operand(1)));
    int group = -1;
    ir::ValuePtr result; // ld_reduce: the value of the order taken
    for (const auto& [order, when] : accessOrders(l, locations.size())) {
        std::vector<ir::ValuePtr> read(locations.size());
        for (std::size_t k : order) {
            const Address& a = locations[k];
            if (load) {
                ir::Event& r = access(l, group, when, {Tag::R});
                setOrdering(r, o.sem, o.scope);
                l.access(r, a, ir::Proxy::Generic);
                l.noteWidth(r, addr, bytes);
                read[k] = Value::readOf(r.id);
            } else if (store) {
                ir::Event& w = access(l, group, when, {Tag::W});
                setOrdering(w, o.sem, o.scope);
                l.access(w, a, ir::Proxy::Generic);
                l.noteWidth(w, addr, bytes);
                w.written = subWordValue(b, type, false);
            } else {
                ir::Event& r = access(l, group, when, {Tag::R, Tag::RMW, Tag::RED});
                setOrdering(r, Sem::Relaxed, o.scope);
                l.access(r, a, ir::Proxy::Generic);
                l.noteWidth(r, addr, bytes);
                const int readId = r.id;
                ir::Event& w = access(l, group, when, {Tag::W, Tag::RMW, Tag::RED});
                setOrdering(w, o.sem, o.scope);
                l.access(w, a, ir::Proxy::Generic);
                l.noteWidth(w, addr, bytes);
                w.written = reducedValue(m.op, isUnsigned, Value::readOf(readId), b, wide);
            }
        }
        if (!load) continue;
        ir::ValuePtr reduced = read[0];
        for (std::size_t k = 1; k < read.size(); ++k)
            reduced = reducedValue(m.op, isUnsigned, reduced, read[k], wide);
        result = result ? Value::make(Value::Op::Ite, {when, reduced, result}) : reduced;
    }
    if (load) l.define(l.operand(0), result);
}

} // namespace ptxmc::lower
