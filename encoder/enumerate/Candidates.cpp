// Explicit enumeration of candidate executions: every rf, co, sc and mbo choice.
#include "enumerate/Candidates.hpp"

#include "ir/BaseRelations.hpp"
#include "ir/Gates.hpp"
#include "ir/ValueSemantics.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace ptxmc::engine::enumerate {

namespace {

/** Visits every permutation of each group, as one odometer over the groups. */
bool forEachPermutation(std::vector<std::vector<int>> groups, std::size_t at,
                        const std::function<bool(const std::vector<std::vector<int>>&)>& visit) {
    if (at == groups.size()) return visit(groups);
    std::sort(groups[at].begin(), groups[at].end());
    do {
        if (!forEachPermutation(groups, at + 1, visit)) return false;
    } while (std::next_permutation(groups[at].begin(), groups[at].end()));
    return true;
}

bool pastDeadline(EnumerationLimit& limit) {
    if (limit.hit) return true;
    try {
        limit.budget.poll();
    } catch (const LimitReached& e) {
        limit.hit = true;
        limit.reason = e.reason();
    }
    return limit.hit;
}

/** True when no spinning wait's operand depends on a read, nor its conditional phase on the
 *  data a reporting copy inspects: then mbo alone decides them. */
bool waitsIndependentOfReads(const ir::Program& p) {
    std::set<int> reported; // mbarrier locations a copy reports on
    for (const auto& e : p.events)
        if (e.mbReport && !(e.mbReport->isConst() && e.mbReport->constant == 0))
            reported.insert(e.location);
    for (const auto& e : p.events) {
        if (!e.has(ir::Tag::MB_WAIT) || !e.blocking) continue;
        if (e.mbConditional && reported.count(e.location)) return false;
        for (const auto& v : {e.mbParity, e.mbToken})
            for (int src : ir::valueSources(v))
                if (p.events[static_cast<std::size_t>(src)].has(ir::Tag::R)) return false;
    }
    return true;
}

/** The leaves of a guard that reads nothing: only the program's choices, as `choice` says. */
struct ChoiceSources {
    const std::vector<bool>& picked;
    [[noreturn]] static std::int64_t none() {
        throw std::logic_error("a guard without sources read an event");
    }
    std::int64_t read(int) const { none(); }
    bool waitSuccess(int) const { none(); }
    bool waitReport(int) const { none(); }
    std::int64_t phaseBefore(int) const { none(); }
    bool choice(std::int64_t i) const { return picked.at(static_cast<std::size_t>(i)); }
};

std::int64_t evalChoices(const ir::Value& v, ChoiceSources& src) {
    return ir::applyValue(ir::ConcreteValues{}, v, src,
                          [&](std::size_t i) { return evalChoices(*v.args.at(i), src); });
}

/**
 * The reads (indices into `reads`) whose guard depends on the program's choices alone and is
 * false under `choice`: they do not happen, whatever the reads-from, so their first candidate
 * stands for all (a multimem operation's accesses in the orders the choices did not take).
 */
std::vector<bool> deadReads(const ir::Program& p, const std::vector<int>& reads,
                            const std::vector<bool>& choice) {
    std::vector<bool> dead(reads.size(), false);
    ChoiceSources src{choice};
    for (std::size_t i = 0; i < reads.size(); ++i) {
        const ir::ValuePtr& guard = p.events[static_cast<std::size_t>(reads[i])].guard;
        if (guard && ir::valueSources(guard).empty()) dead[i] = evalChoices(*guard, src) == 0;
    }
    return dead;
}

} // namespace

void forEachBlockedSet(const ir::Program& p,
                       const std::function<bool(const std::set<int>&)>& visit) {
    std::vector<std::vector<int>> perThread(p.threads.size());
    for (int w : ir::chosenGates(p))
        perThread[static_cast<std::size_t>(p.events[static_cast<std::size_t>(w)].thread)].push_back(
            w);
    std::vector<std::size_t> pick(perThread.size(), 0); // 0: none, i: the i-th wait
    while (true) {
        std::size_t i = 0;
        while (i < pick.size() && ++pick[i] > perThread[i].size())
            pick[i++] = 0;
        if (i == pick.size()) return; // back to "none anywhere": every set was visited
        std::set<int> blocked;
        for (std::size_t t = 0; t < pick.size(); ++t)
            if (pick[t] > 0) blocked.insert(perThread[t][pick[t] - 1]);
        if (!visit(blocked)) return;
    }
}

void forEachCandidate(const ir::Program& p, EnumerationLimit& limit, bool onlyProgress,
                      const std::function<bool(const Choices&, Outcome&)>& visit,
                      const std::set<int>& blocked) {
    // After a blocked gate nothing happens: leave those events out of every choice.
    std::vector<bool> happens = gateExistence(p, blocked);
    auto out = [&](const ir::Event& e) { return !happens[static_cast<std::size_t>(e.id)]; };
    std::vector<int> reads;
    std::vector<std::vector<int>> candidates;
    for (const auto& e : p.events)
        if (e.has(ir::Tag::R) && !out(e)) {
            reads.push_back(e.id);
            candidates.push_back(ir::rfCandidates(p, e));
        }
    std::map<int, std::vector<int>> mbOps, writes;
    std::vector<int> fences, blocking;
    for (const auto& e : p.events) {
        if (out(e)) continue;
        if (e.has(ir::Tag::MB)) mbOps[e.location].push_back(e.id);
        if (e.has(ir::Tag::W)) writes[e.location].push_back(e.id);
        if (e.has(ir::Tag::F) && e.has(ir::Tag::SC)) fences.push_back(e.id);
        if (e.has(ir::Tag::MB_WAIT) && e.blocking) blocking.push_back(e.id);
    }
    bool prune = onlyProgress && waitsIndependentOfReads(p);
    std::vector<int> mbLocs;
    std::vector<std::vector<int>> mbGroups;
    for (const auto& [loc, ops] : mbOps) {
        mbLocs.push_back(loc);
        mbGroups.push_back(ops);
    }
    Choices c;
    c.blocked = blocked;
    std::vector<std::size_t> pick(reads.size(), 0);
    std::vector<bool> dead(reads.size(), false); // under the choices being visited
    auto visitRf = [&]() {
        Outcome o = computeOutcome(p, c);
        if (o.noExecution) return true;
        for (const auto& [r, w] : c.rf)
            if (o.exists[static_cast<std::size_t>(r)] && !o.exists[static_cast<std::size_t>(w)])
                return true; // reads from a write that does not happen
        // A read that does not happen (its path is not taken) has no value anyone uses: its
        // first candidate stands for all of them.
        for (std::size_t i = 0; i < reads.size(); ++i)
            if (pick[i] != 0 && !o.exists[static_cast<std::size_t>(reads[i])]) return true;
        // Coherence orders over the writes that happen; the initial write comes first.
        std::vector<int> locs;
        std::vector<std::vector<int>> groups;
        for (const auto& [loc, ws] : writes) {
            std::vector<int> rest;
            for (int w : ws)
                if (!p.events[static_cast<std::size_t>(w)].has(ir::Tag::IW) &&
                    o.exists[static_cast<std::size_t>(w)])
                    rest.push_back(w);
            locs.push_back(loc);
            groups.push_back(rest);
        }
        groups.push_back(fences);
        return forEachPermutation(groups, 0, [&](const std::vector<std::vector<int>>& orders) {
            if (pastDeadline(limit)) return false;
            for (std::size_t k = 0; k < locs.size(); ++k) {
                std::vector<int> order{p.locations[static_cast<std::size_t>(locs[k])].init};
                order.insert(order.end(), orders[k].begin(), orders[k].end());
                c.co[locs[k]] = order;
            }
            c.sc = orders.back();
            return visit(c, o);
        });
    };
    auto forEachMbOrder = [&]() {
        return forEachPermutation(mbGroups, 0, [&](const std::vector<std::vector<int>>& mbo) {
            c.mbo.clear();
            for (std::size_t k = 0; k < mbLocs.size(); ++k)
                c.mbo[mbLocs[k]] = mbo[k];
            if (prune) {
                // Spinning waits decided by mbo alone: skip orders where one of them fails.
                for (std::size_t i = 0; i < reads.size(); ++i)
                    c.rf[reads[i]] = candidates[i][0];
                Outcome o = computeOutcome(p, c);
                for (int w : blocking)
                    if (!o.noExecution && o.exists[static_cast<std::size_t>(w)] &&
                        !o.waitSuccess.at(w))
                        return !pastDeadline(limit);
            }
            std::fill(pick.begin(), pick.end(), 0);
            while (true) {
                for (std::size_t i = 0; i < reads.size(); ++i)
                    c.rf[reads[i]] = candidates[i][pick[i]];
                if (!visitRf()) return false;
                std::size_t i = 0;
                while (i < reads.size() && (dead[i] || ++pick[i] == candidates[i].size()))
                    pick[i++] = 0;
                if (i == reads.size()) return true;
            }
        });
    };
    // Every way the program's nondet.pred choices go: the outermost odometer.
    c.choice.assign(p.choices.size(), false);
    while (true) {
        dead = deadReads(p, reads, c.choice);
        if (!forEachMbOrder() || pastDeadline(limit)) return;
        std::size_t i = 0;
        while (i < c.choice.size() && c.choice[i])
            c.choice[i++] = false;
        if (i == c.choice.size()) return;
        c.choice[i] = true;
    }
}

} // namespace ptxmc::engine::enumerate
