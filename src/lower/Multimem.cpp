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

/** A store's source "truncated (chopped) to the appropriate number of bits" of an 8- or 16-bit
 *  type (Operand Size Exceeding Instruction-Type Size). */
ir::ValuePtr truncated(const ir::ValuePtr& v, const ptx::Type& t) {
    if (t.bits >= 32) return v;
    return Value::make(Value::Op::And, {v, Value::makeConst((std::int64_t{1} << t.bits) - 1)});
}

/** A new access of the instruction, unordered with its accesses of the other locations. */
ir::Event& sibling(Lowerer& l, int& group, std::initializer_list<Tag> tags) {
    ir::Event& e = l.issue(tags);
    if (group < 0) group = e.id;
    e.multimemGroup = group;
    return e;
}

} // namespace

/**
 * "The multimem.* operations operate on multimem addresses and accesses all of the multiple
 * memory locations which the multimem address points to" ({Multimem#}): each location is
 * accessed by a memory operation of its own with the instruction's semantics, through the
 * multimem address (a virtual address of its own: a virtual alias of the location, {Proxies}).
 * The text orders those operations in no way: they are in program order with the thread's other
 * instructions and not with each other (Event::multimemGroup), as the elements of a vector
 * access are "executed in an unspecified order" ({MemoryOperationsOnVectorDataTypes}). Whether
 * the locations' coherence orders agree is decision Q25 (model/decisions.cat).
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
    int group = -1;
    if (load) {
        ir::ValuePtr result;
        for (const Address& a : locations) {
            ir::Event& r = sibling(l, group, {Tag::R});
            setOrdering(r, o.sem, o.scope);
            l.access(r, a, ir::Proxy::Generic);
            ir::ValuePtr v = Value::readOf(r.id);
            result = result ? reducedValue(m.op, isUnsigned, result, v) : v;
        }
        l.define(l.operand(0), result);
        return;
    }
    const ir::ValuePtr b = l.value(l.operand(1));
    for (const Address& a : locations) {
        if (store) {
            ir::Event& w = sibling(l, group, {Tag::W});
            setOrdering(w, o.sem, o.scope);
            l.access(w, a, ir::Proxy::Generic);
            w.written = truncated(b, type);
            continue;
        }
        ir::Event& r = sibling(l, group, {Tag::R, Tag::RMW, Tag::RED});
        setOrdering(r, Sem::Relaxed, o.scope);
        l.access(r, a, ir::Proxy::Generic);
        const int readId = r.id;
        ir::Event& w = sibling(l, group, {Tag::W, Tag::RMW, Tag::RED});
        setOrdering(w, o.sem, o.scope);
        l.access(w, a, ir::Proxy::Generic);
        w.written = reducedValue(m.op, isUnsigned, Value::readOf(readId), b);
    }
}

} // namespace ptxmc::lower
