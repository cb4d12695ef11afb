// Computes base sets and program-determined base relations from a lowered program.
#include "ir/BaseRelations.hpp"

#include "ir/Gates.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

namespace ptxmc::ir {

namespace {

void collectSources(const ValuePtr& v, std::set<int>& out) {
    if (!v) return;
    if (v->op == Value::Op::BarrierResult) { // its own thread's barrier event, not the others'
        out.insert(v->event);
        return;
    }
    if (v->op == Value::Op::ReadOf || v->op == Value::Op::WaitResult ||
        v->op == Value::Op::WaitReport || v->op == Value::Op::PhaseToken)
        out.insert(v->event);
    for (const auto& a : v->args)
        collectSources(a, out);
}

using Pred = std::function<bool(const Event&, const Event&)>;

Pairs allPairs(const Program& p, const Pred& pred) {
    Pairs out;
    for (const auto& a : p.events)
        for (const auto& b : p.events)
            if (pred(a, b)) out.emplace_back(a.id, b.id);
    return out;
}

bool isMemoryLike(const Event& e) {
    return e.location >= 0;
}

/** A read never reads the write of its own instruction (an mma's D, an atom's write). */
bool sameOperation(const Event& w, const Event& r) {
    return w.thread >= 0 && w.thread == r.thread && w.instance == r.instance;
}

Pairs dependencies(const Program& p) {
    std::set<std::pair<int, int>> out;
    for (const auto& e : p.events) {
        std::set<int> src;
        for (const ValuePtr* v : {&e.written, &e.guard, &e.mbParity, &e.mbToken, &e.mbReport})
            collectSources(*v, src);
        for (int s : src)
            out.emplace(s, e.id);
    }
    return {out.begin(), out.end()};
}

/** A branch's condition sources to every event after the branch in its thread. */
Pairs controlDependencies(const Program& p) {
    Pairs out;
    for (const auto& e : p.events)
        for (int s : e.ctrlSources)
            out.emplace_back(s, e.id);
    std::sort(out.begin(), out.end());
    return out;
}

Pairs bulkWaits(const Program& p) {
    Pairs out;
    for (const auto& t : p.threads) {
        // Bulk and non-bulk async-groups are counted apart (PTX ISA {CpAsyncGroups}), and
        // wgmma-groups apart from both (PTX ISA {WgmmaCommitGroup}).
        std::vector<int> groups[3];
        for (int id : t.events) {
            const Event& e = p.events[static_cast<std::size_t>(id)];
            bool wg = e.has(Tag::WG_COMMIT) || e.has(Tag::WG_WAIT);
            auto& mine = groups[wg ? 2 : e.nonBulkGroup ? 1 : 0];
            if (e.has(Tag::BCOMMIT) || e.has(Tag::WG_COMMIT)) mine.push_back(id);
            if (!e.has(Tag::BWAIT) && !e.has(Tag::CPA_WAIT) && !e.has(Tag::WG_WAIT)) continue;
            // wait_group N: all but the N most recent groups have completed (PTX ISA {BulkGroups},
            // {CpAsyncWaitGroup})
            int waited = static_cast<int>(mine.size()) - e.bulkWaitN;
            for (int g = 0; g < waited; ++g)
                out.emplace_back(mine[static_cast<std::size_t>(g)], id);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

/** The cluster of each CTA that runs a thread (a CTA without threads is its own cluster). */
std::map<int, int> clusterOfCta(const Program& p) {
    std::map<int, int> out;
    for (const auto& t : p.threads)
        out[t.cta] = t.cluster;
    return out;
}

/**
 * The shared-memory cell access `x` is to, or null (PTX ISA {SharedStateSpace}): the windows
 * .shared::cta and .shared::cluster of proxy fences (ptx.cat, pf-covers).
 */
const Location* sharedCell(const Program& p, const Event& x) {
    if (!x.has(Tag::M) || x.location < 0) return nullptr;
    const Location& cell = p.locations[static_cast<std::size_t>(x.location)];
    return cell.space == Space::Shared ? &cell : nullptr;
}

/**
 * A tcgen05.alloc or dealloc to the tensor-memory accesses of its CTA's cells (initial writes
 * left out). Tensor-memory addresses are static names here, so each cell a CTA declares
 * belongs to each of that CTA's allocations (PTX ISA #tensor-memory,
 * #tcgen05-instructions-tcgen05-alloc-dealloc-relinquish-alloc-permit).
 */
Pairs allocationCells(const Program& p) {
    return allPairs(p, [&](const Event& a, const Event& x) {
        if (!(a.has(Tag::ALLOC) || a.has(Tag::DEALLOC)) || !x.has(Tag::TMEM) || !x.has(Tag::M) ||
            x.has(Tag::IW))
            return false;
        return p.locations[static_cast<std::size_t>(x.location)].cta == a.cta;
    });
}

} // namespace

std::vector<int> valueSources(const ValuePtr& v) {
    std::set<int> s;
    collectSources(v, s);
    return {s.begin(), s.end()};
}

bool scopeIncludes(const Event& e, const Event& other) {
    if (e.thread < 0 || other.thread < 0) return false;
    switch (e.scope) {
    case Scope::None:
        return e.thread == other.thread;
    case Scope::Cta:
        return e.cta == other.cta;
    case Scope::Cluster:
        return e.cluster == other.cluster;
    case Scope::Gpu:
        return e.gpu == other.gpu;
    case Scope::Sys:
        return true;
    }
    return false;
}

std::vector<int> baseSet(const Program& p, Tag tag) {
    std::vector<int> out;
    for (const auto& e : p.events)
        if (e.has(tag)) out.push_back(e.id);
    return out;
}

std::vector<int> rfCandidates(const Program& p, const Event& read) {
    std::vector<int> out;
    for (const auto& w : p.events)
        if (w.has(Tag::W) && w.location == read.location && !sameOperation(w, read))
            out.push_back(w.id);
    return out;
}

namespace {

bool inSameThread(const Event& a, const Event& b) {
    return a.thread >= 0 && a.thread == b.thread;
}

} // namespace

PairTest densePairTest(const Program& p, Rel rel) {
    switch (rel) {
    case Rel::Int:
        return [](const Event& a, const Event& b) { return a.id == b.id || inSameThread(a, b); };
    case Rel::Ext:
        return [](const Event& a, const Event& b) { return a.id != b.id && !inSameThread(a, b); };
    case Rel::Loc:
        return [](const Event& a, const Event& b) {
            return isMemoryLike(a) && a.location == b.location;
        };
    case Rel::Vloc:
        return [](const Event& a, const Event& b) {
            return isMemoryLike(a) && isMemoryLike(b) && a.vaddr == b.vaddr;
        };
    case Rel::Scta:
        return [](const Event& a, const Event& b) {
            return a.thread >= 0 && b.thread >= 0 && a.cta == b.cta;
        };
    case Rel::Scluster:
        return [](const Event& a, const Event& b) {
            return a.thread >= 0 && b.thread >= 0 && a.cluster == b.cluster;
        };
    case Rel::Sr:
        return [](const Event& a, const Event& b) {
            return scopeIncludes(a, b) && scopeIncludes(b, a);
        };
    case Rel::Sproxy:
        return [](const Event& a, const Event& b) {
            if (!isMemoryLike(a) || !isMemoryLike(b)) return false;
            return a.proxy == b.proxy || a.has(Tag::IW) || b.has(Tag::IW);
        };
    case Rel::CtaShared: // an event to the shared-memory accesses of its own CTA's cells
        return [&p](const Event& e, const Event& x) {
            const Location* cell = sharedCell(p, x);
            return cell != nullptr && cell->cta == e.cta;
        };
    case Rel::ClusterShared: { // ... of the cells of a CTA of its cluster
        auto cluster = std::make_shared<const std::map<int, int>>(clusterOfCta(p));
        return [&p, cluster](const Event& e, const Event& x) {
            const Location* cell = sharedCell(p, x);
            if (cell == nullptr) return false;
            auto it = cluster->find(cell->cta);
            return it != cluster->end() && it->second == e.cluster;
        };
    }
    default:
        return nullptr;
    }
}

Pairs staticRelation(const Program& p, Rel rel) {
    switch (rel) {
    case Rel::Id:
        return allPairs(p, [](const Event& a, const Event& b) { return a.id == b.id; });
    case Rel::Po:
        return allPairs(p, [](const Event& a, const Event& b) {
            return a.thread >= 0 && a.thread == b.thread && a.poIndex >= 0 && b.poIndex >= 0 &&
                   a.poIndex < b.poIndex;
        });
    case Rel::Int:
    case Rel::Ext:
    case Rel::Loc:
    case Rel::Vloc:
    case Rel::Scta:
    case Rel::Scluster:
    case Rel::Sr:
    case Rel::Sproxy:
    case Rel::CtaShared:
    case Rel::ClusterShared:
        return allPairs(p, densePairTest(p, rel));
    case Rel::Rmw:
        return allPairs(p, [](const Event& a, const Event& b) {
            if (!a.has(Tag::RMW) || !a.has(Tag::R) || !b.has(Tag::RMW) || !b.has(Tag::W))
                return false;
            // cp.reduce.async.bulk: the read and the write of one element, made one after the
            // other by the operation
            if (a.issue >= 0) return a.issue == b.issue && b.id == a.id + 1;
            return a.thread == b.thread && b.poIndex == a.poIndex + 1 && a.instance == b.instance &&
                   a.location == b.location;
        });
    case Rel::Syncbar:
        return allPairs(p, [](const Event& a, const Event& b) {
            // A .relaxed barrier.cluster.arrive orders nothing (PTX ISA
            // #parallel-synchronization-and-communication-instructions-barrier-cluster).
            return a.has(Tag::BAR_ARRIVE) && b.has(Tag::BAR_WAIT) && a.thread != b.thread &&
                   !a.has(Tag::Relaxed) && barrierKey(a) == barrierKey(b);
        });
    case Rel::BarOrder:
        return allPairs(p, [](const Event& a, const Event& b) {
            return a.has(Tag::BAR_ARRIVE) && b.has(Tag::BAR_WAIT) && a.thread != b.thread &&
                   barrierKey(a) == barrierKey(b);
        });
    case Rel::Ae:
        return allPairs(
            p, [](const Event& a, const Event& b) { return b.issue >= 0 && b.issue == a.id; });
    case Rel::Iico:
        return allPairs(p, [](const Event& a, const Event& b) {
            if (a.issue < 0 || a.issue != b.issue) return false;
            bool signal = b.has(Tag::MB) || b.has(Tag::BULK_DONE) || b.has(Tag::WG_DONE);
            return (a.has(Tag::R) && (b.has(Tag::W) || signal)) || (a.has(Tag::W) && signal);
        });
    case Rel::Dep:
        return dependencies(p);
    case Rel::Ctrl:
        return controlDependencies(p);
    case Rel::MultimemSibling:
        return allPairs(p, [](const Event& a, const Event& b) {
            return a.multimemGroup >= 0 && a.multimemGroup == b.multimemGroup &&
                   a.location != b.location;
        });
    case Rel::SameAcc:
        return allPairs(p, [](const Event& a, const Event& b) {
            return a.has(Tag::MMA) && b.has(Tag::MMA) && a.accumulator == b.accumulator;
        });
    case Rel::SameIdesc:
        return allPairs(p, [](const Event& a, const Event& b) {
            bool mma = a.has(Tag::MMA) && b.has(Tag::MMA);
            bool wgmma = a.has(Tag::WGMMA) && b.has(Tag::WGMMA);
            return (mma || wgmma) && a.idesc == b.idesc;
        });
    case Rel::SameKind:
        return allPairs(p, [](const Event& a, const Event& b) {
            return a.has(Tag::MMA) && b.has(Tag::MMA) && a.mmaKind == b.mmaKind;
        });
    case Rel::SameCollector:
        return allPairs(p, [](const Event& a, const Event& b) {
            return a.collector >= 0 && a.collector == b.collector && a.thread == b.thread;
        });
    case Rel::SameCg:
        return allPairs(p, [](const Event& a, const Event& b) {
            return a.has(Tag::TC) && b.has(Tag::TC) && a.ctaGroup > 0 && a.ctaGroup == b.ctaGroup;
        });
    case Rel::Bgroup:
        return allPairs(p, [](const Event& a, const Event& b) {
            return (a.has(Tag::BULK) || a.has(Tag::CPA) || a.has(Tag::WGMMA)) &&
                   a.bulkGroup == b.id;
        });
    case Rel::Bwait:
        return bulkWaits(p);
    case Rel::TmemBlock:
        return allocationCells(p);
    case Rel::TmemFrees:
        return allPairs(p, [](const Event& a, const Event& d) {
            return a.has(Tag::ALLOC) && d.has(Tag::DEALLOC) && d.tmemAlloc == a.id;
        });
    case Rel::TmemColsGrow:
        return allPairs(p, [](const Event& a, const Event& b) {
            return a.has(Tag::ALLOC) && b.has(Tag::ALLOC) && a.cta == b.cta &&
                   b.tmemColumns > a.tmemColumns;
        });
    case Rel::TcPeer:
        return allPairs(p, [](const Event& a, const Event& b) {
            return a.peerEvent >= 0 && a.peerEvent == b.id;
        });
    case Rel::Rf:
    case Rel::Co:
    case Rel::Sc:
    case Rel::Mbo:
    case Rel::MbObs:
        break; // chosen by the solver: each engine builds them from its choices
    }
    throw std::logic_error("not a program-determined base relation: " + std::string(relName(rel)));
}

} // namespace ptxmc::ir
