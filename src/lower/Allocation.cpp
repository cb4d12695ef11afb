// Tensor-memory allocations: the alloc each dealloc frees, and the peers of cta_group::2 ones.
#include "lower/Lowerer.hpp"
#include "ptx/Sections.hpp"

#include <fmt/format.h>
#include <map>

namespace ptxmc::lower {

using ir::Tag;
using ir::Value;

namespace {

ir::Event& eventAt(Lowerer& l, int id) {
    return l.program().events[static_cast<std::size_t>(id)];
}

/** The allocs of `cta` whose address is the constant `address`. */
std::vector<int> allocsAt(Lowerer& l, int cta, std::int64_t address) {
    std::vector<int> out;
    for (const AllocRecord& a : l.allocs) {
        const ir::Event& e = eventAt(l, a.event);
        if (e.cta == cta && e.tmemAddress == wrap32(address)) out.push_back(a.event);
    }
    return out;
}

/** The allocs whose address store writes shared-memory cell `slot`. */
std::vector<int> allocsStoringTo(Lowerer& l, int slot) {
    std::vector<int> out;
    for (const AllocRecord& a : l.allocs)
        if (a.slot == slot) out.push_back(a.event);
    return out;
}

/**
 * The alloc a dealloc's taddr names. Addresses are static here: taddr is either a constant
 * address or a register loaded from the slot an alloc stored its address to (which alloc's
 * value the load returns is then a matter of the execution: a stale read is a data race on the
 * slot).
 */
int allocOf(Lowerer& l, const DeallocRecord& d) {
    const ir::Event& dealloc = eventAt(l, d.event);
    std::vector<int> found;
    std::string what;
    if (d.taddr->op == Value::Op::Const) {
        found = allocsAt(l, dealloc.cta, d.taddr->constant);
        what = fmt::format("address {:#x}", wrap32(d.taddr->constant) & 0xffffffff);
    } else if (d.taddr->op == Value::Op::ReadOf && eventAt(l, d.taddr->event).has(Tag::R)) {
        int slot = eventAt(l, d.taddr->event).location;
        found = allocsStoringTo(l, slot);
        what = "a load of '" + l.program().locations[static_cast<std::size_t>(slot)].name + "'";
    } else {
        l.fail(d.loc, "taddr must be the address tcgen05.alloc returns: a constant, or a register "
                      "loaded from the shared-memory cell the alloc wrote it to");
    }
    if (found.empty())
        l.fail(d.loc, "taddr (" + what + ") is not the address of an allocation of CTA " +
                          std::to_string(dealloc.cta) + " (" + ptx::cite(ptx::Sec::Tcgen05Alloc) +
                          ": taddr must point to a previous Tensor Memory allocation)");
    if (found.size() > 1)
        l.fail(d.loc, "taddr (" + what +
                          ") may hold the address of several allocations: ptxmc matches a "
                          "dealloc to one alloc, so give each alloc its own address cell");
    return found.front();
}

/** Links each dealloc to the alloc it frees: same CTA, same number of columns. */
void matchDeallocs(Lowerer& l) {
    for (const DeallocRecord& d : l.deallocs) {
        int alloc = allocOf(l, d);
        ir::Event& dealloc = eventAt(l, d.event);
        const ir::Event& a = eventAt(l, alloc);
        if (a.cta != dealloc.cta)
            l.fail(d.loc, "taddr is the address of an allocation of CTA " + std::to_string(a.cta) +
                              "; a CTA deallocates its own tensor memory (" +
                              ptx::cite(ptx::Sec::Tcgen05Alloc) + ")");
        if (a.tmemColumns != dealloc.tmemColumns)
            l.fail(dealloc.loc, "deallocates " + std::to_string(dealloc.tmemColumns) +
                                    " columns of a " + std::to_string(a.tmemColumns) +
                                    "-column allocation: ptxmc frees whole allocations");
        dealloc.tmemAddress = a.tmemAddress;
        dealloc.tmemAlloc = alloc;
    }
}

/**
 * Pairs the k-th cta_group::2 `tag` event of each CTA (in thread, then program order) with the
 * k-th of its peer CTA; an unequal count is a static deadlock (PTX ISA #tcgen05-issue-granularity).
 */
void pairPeers(Lowerer& l, Tag tag, const std::string& opcode) {
    std::map<int, std::vector<int>> byCta;
    for (const auto& e : l.program().events)
        if (e.has(tag) && e.has(Tag::CG2)) byCta[e.cta].push_back(e.id);
    const std::vector<int> none;
    for (const auto& [cta, mine] : byCta) {
        int peer = l.peerCta(cta);
        if (peer >= 0 && peer < cta && byCta.count(peer)) continue; // paired from the peer's side
        auto it = peer >= 0 ? byCta.find(peer) : byCta.end();
        const std::vector<int>& theirs = it == byCta.end() ? none : it->second;
        for (std::size_t k = 0; k < mine.size() && k < theirs.size(); ++k) {
            eventAt(l, mine[k]).peerEvent = theirs[k];
            eventAt(l, theirs[k]).peerEvent = mine[k];
        }
        if (mine.size() == theirs.size()) continue;
        std::string peerText = peer >= 0 ? "its peer CTA " + std::to_string(peer) + " " +
                                               std::to_string(theirs.size()) + " time(s)"
                                         : "its peer CTA runs no thread of this test";
        l.program().staticDeadlocks.push_back(
            opcode + ".cta_group::2: CTA " + std::to_string(cta) + " performs it " +
            std::to_string(mine.size()) + " time(s), " + peerText + "; " +
            ptx::cite(ptx::Sec::Tcgen05IssueGranularity) + " (#" +
            ptx::section(ptx::Sec::Tcgen05IssueGranularity).anchor +
            "): \"the first warp to perform the "
            "operation could block until the second warp in the Peer CTA also performs the "
            "operation\"");
    }
}

} // namespace

void resolveAllocations(Lowerer& l) {
    matchDeallocs(l);
    pairPeers(l, Tag::ALLOC, "tcgen05.alloc");
    pairPeers(l, Tag::DEALLOC, "tcgen05.dealloc");
}

} // namespace ptxmc::lower
