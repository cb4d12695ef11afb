// Searches the strengthenings of a test for those that forbid an allowed outcome or flag.
#include "explain/Remedies.hpp"

#include "explain/Explanation.hpp"
#include "ptx/Print.hpp"
#include "support/SourceLoc.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace ptxmc::engine::explain {

namespace {

using Change = std::vector<ptx::Strengthening>;
using Kind = ptx::Strengthening::Kind;

/** How costly a change is to keep: the combination drops the costliest first. */
int cost(const ptx::Strengthening& s) {
    switch (s.kind) {
    case Kind::Fence:
        return 6;
    case Kind::Widen:
        return 3 + static_cast<int>(s.scope) - static_cast<int>(ir::Scope::Cluster);
    case Kind::Acquire:
    case Kind::Release:
        return 2;
    case Kind::MbarrierWait:
        return 2;
    case Kind::Wait: // a full bulk wait_group 0 waits for the writes too, not just the reads
        return s.waitFor == 4 ? 2 : 1;
    default:
        return 1; // proxy and tcgen05 fences, waits for the thread's own async operations
    }
}

bool sameChange(const ptx::Strengthening& a, const ptx::Strengthening& b) {
    auto barrierText = [](const ptx::Strengthening& s) {
        return s.barrier ? ptx::printOperand(*s.barrier) : std::string();
    };
    return a.kind == b.kind && a.thread == b.thread && a.index == b.index &&
           a.waitFor == b.waitFor && a.scope == b.scope && a.copyOf == b.copyOf &&
           a.copyThread == b.copyThread && a.parity == b.parity &&
           a.parityRegister == b.parityRegister && barrierText(a) == barrierText(b);
}

bool contains(const Change& big, const Change& small) {
    return std::all_of(small.begin(), small.end(), [&](const auto& s) {
        return std::any_of(big.begin(), big.end(), [&](const auto& b) { return sameChange(b, s); });
    });
}

std::string answerText(const engine::CheckResult& r) {
    std::string flags;
    for (const auto& f : r.flags)
        flags += (flags.empty() ? "" : ",") + f.name;
    return std::string(engine::toString(r.observation)) + ", " +
           (flags.empty() ? "no flag" : "flags " + flags) + ", " + std::to_string(r.states.size()) +
           (r.states.size() == 1 ? " state" : " states");
}

class Searcher {
public:
    Searcher(const litmus::Test& test, const cat::ResolvedModel& model, const RemedyGoal& goal,
             const engine::CheckResult& before, const lower::LowerOptions& lowering,
             const CheckOptions& options, RemedySearch& out)
        : test_(test), model_(model), goal_(goal), before_(before), lowering_(lowering),
          options_(options), out_(out) {}

    /** Does the goal hold with `changes`? The axioms that then forbid the outcome. */
    std::optional<std::vector<std::string>> holds(const Change& changes) {
        ++out_.tried;
        try {
            ir::Program p = lower::lowerTest(ptx::applyStrengthenings(test_, changes), lowering_);
            // Most changes forbid nothing: one query under the check's encoding says so first.
            if (reachable(p, model_, goal_.outcome, goal_.flag, options_)) return std::nullopt;
            if (goal_.flag.empty()) return forbiddingAxioms(p, model_, goal_.outcome, options_);
            engine::CheckResult r = engine::check(p, model_, options_);
            if (r.observation == Observation::Unknown || r.observation == Observation::Deadlock)
                return std::nullopt;
            for (const auto& f : r.flags)
                if (f.name == goal_.flag) return std::nullopt;
            return std::vector<std::string>{};
        } catch (const InputError&) { // a change the lowering rejects forbids nothing
            return std::nullopt;
        }
    }

    /** Tries `changes` unless a fix found already does less; records it when it works. */
    void offer(const Change& changes) {
        for (const Remedy& r : out_.found)
            if (contains(changes, r.changes)) return;
        if (auto axioms = holds(changes))
            out_.found.push_back({changes, ptx::describe(test_, changes), *axioms, "", 0, true});
    }

    /** The whole set of changes with the goal holding, minimal: each group (then change),
     *  costliest first, dropped when the rest still does it. */
    void combine(const std::vector<ptx::Strengthening>& all, std::size_t budget) {
        Change kept;
        std::map<std::pair<int, int>, ptx::Strengthening> widest; // one Widen per instruction
        for (const auto& s : all) {
            if (s.kind == Kind::MbarrierWait) continue; // guesses: one at a time only
            if (s.kind != Kind::Widen) {
                kept.push_back(s);
                continue;
            }
            auto [it, fresh] = widest.try_emplace({s.thread, s.index}, s);
            if (!fresh && s.scope > it->second.scope) it->second = s;
        }
        for (const auto& [at, s] : widest)
            kept.push_back(s);
        const std::size_t stop = out_.tried + budget;
        out_.combined = true;
        auto axioms = holds(kept);
        if (!axioms) return;
        std::stable_sort(kept.begin(), kept.end(),
                         [](const auto& a, const auto& b) { return cost(a) > cost(b); });
        for (std::size_t i = 0; i < kept.size() && out_.tried < stop;) {
            Change without = kept;
            without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
            if (auto a = holds(without)) {
                kept = std::move(without);
                axioms = std::move(a);
            } else {
                ++i;
            }
        }
        std::stable_sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
            return std::tie(a.thread, a.index) < std::tie(b.thread, b.index);
        });
        Remedy r{kept, ptx::describe(test_, kept), *axioms, "", 0, true};
        r.minimal = out_.tried < stop; // else some change was never tried without
        out_.found.push_back(r);
    }

    /** Checks each fix whole; drops those that hang or raise a flag the test did not. */
    void recheck() {
        std::set<std::string> raisedBefore;
        for (const auto& f : before_.flags)
            raisedBefore.insert(f.name);
        std::vector<Remedy> kept;
        for (Remedy& r : out_.found) {
            ir::Program p = lower::lowerTest(ptx::applyStrengthenings(test_, r.changes), lowering_);
            engine::CheckResult after = engine::check(p, model_, options_);
            bool fine = after.observation != Observation::Unknown &&
                        after.observation != Observation::Deadlock;
            for (const auto& f : after.flags)
                fine = fine && raisedBefore.count(f.name);
            if (!fine) {
                ++out_.rejected;
                continue;
            }
            r.after = answerText(after);
            // each insertion is an instruction of its own; rewrites count once per instruction
            std::set<std::pair<int, int>> rewritten;
            std::size_t inserted = 0;
            for (const auto& c : r.changes) {
                if (c.inserts())
                    ++inserted;
                else
                    rewritten.insert({c.thread, c.index});
            }
            r.instructions = inserted + rewritten.size();
            kept.push_back(std::move(r));
        }
        std::stable_sort(kept.begin(), kept.end(), [](const Remedy& a, const Remedy& b) {
            return a.instructions < b.instructions;
        });
        out_.found = std::move(kept);
    }

private:
    const litmus::Test& test_;
    const cat::ResolvedModel& model_;
    const RemedyGoal& goal_;
    const engine::CheckResult& before_;
    const lower::LowerOptions& lowering_;
    const CheckOptions& options_;
    RemedySearch& out_;
};

/** The same change at every place of one instruction text: per thread, then across threads
 *  (each group of two or more places). */
std::vector<Change> repeated(const litmus::Test& test, const std::vector<ptx::Strengthening>& all) {
    std::vector<std::string> order;
    std::map<std::string, Change> byPattern;
    for (const auto& s : all) {
        if (s.kind == Kind::MbarrierWait) continue;
        const std::string key = ptx::patternOf(test, s);
        if (!byPattern.count(key)) order.push_back(key);
        byPattern[key].push_back(s);
    }
    std::vector<Change> perThread, acrossThreads;
    for (const std::string& key : order) {
        const Change& places = byPattern[key];
        std::map<int, Change> byThread;
        for (const auto& s : places)
            byThread[s.thread].push_back(s);
        for (const auto& [thread, mine] : byThread)
            if (mine.size() > 1) perThread.push_back(mine);
        if (byThread.size() > 1) acrossThreads.push_back(places);
    }
    auto bySize = [](const Change& a, const Change& b) { return a.size() < b.size(); };
    std::stable_sort(perThread.begin(), perThread.end(), bySize);
    std::stable_sort(acrossThreads.begin(), acrossThreads.end(), bySize);
    perThread.insert(perThread.end(), acrossThreads.begin(), acrossThreads.end());
    return perThread;
}

} // namespace

RemedySearch findRemedies(const litmus::Test& test, std::size_t events,
                          const cat::ResolvedModel& model, const RemedyGoal& goal,
                          const engine::CheckResult& before, const lower::LowerOptions& lowering,
                          const CheckOptions& options) {
    RemedySearch search;
    const std::vector<ptx::Strengthening> all = ptx::strengthenings(test);
    search.candidates = all.size();
    if (events > kMaxRemedyEvents) {
        search.skipped = "the program has " + std::to_string(events) +
                         " events, more than the search's limit of " +
                         std::to_string(kMaxRemedyEvents) +
                         " (fixed, no option raises it: each of its checks, up to " +
                         std::to_string(kMaxRemedyTries) +
                         " a stage, solves the changed program whole); `ptxmc fences` tells "
                         "which of its synchronisation is load-bearing";
        return search;
    }
    Searcher searcher(test, model, goal, before, lowering, options, search);
    for (std::size_t i = 0; i < all.size() && i < kMaxRemedyTries; ++i)
        searcher.offer({all[i]});
    const std::size_t groupsFrom = search.tried;
    for (const Change& group : repeated(test, all))
        if (search.tried < groupsFrom + kMaxRemedyTries) searcher.offer(group);
    if (search.found.empty()) searcher.combine(all, kMaxRemedyTries);
    searcher.recheck();
    return search;
}

} // namespace ptxmc::engine::explain
