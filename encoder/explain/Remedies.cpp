// Searches the strengthenings of a test for those that forbid an allowed outcome.
#include "explain/Remedies.hpp"

#include "explain/Explanation.hpp"
#include "ptx/Strengthen.hpp"
#include "support/SourceLoc.hpp"

namespace ptxmc::engine::explain {

RemedySearch findRemedies(const litmus::Test& test, std::size_t events,
                          const cat::ResolvedModel& model,
                          const std::optional<std::string>& outcome,
                          const lower::LowerOptions& lowering, const CheckOptions& options) {
    RemedySearch search;
    const std::vector<ptx::Strengthening> all = ptx::strengthenings(test);
    search.candidates = all.size();
    if (events > kMaxRemedyEvents) {
        search.skipped = "the program has " + std::to_string(events) +
                         " events (the search runs up to " + std::to_string(kMaxRemedyEvents) +
                         "); `ptxmc fences` tells which of its "
                         "synchronisation is load-bearing";
        return search;
    }
    // The test with `changes` applied: forbidden then? (A change the lowering rejects, e.g. a
    // wait under a run-time branch, forbids nothing.)
    auto tryChanges = [&](const std::vector<ptx::Strengthening>& changes) {
        ++search.tried;
        try {
            litmus::Test changed = test;
            std::string text;
            for (const auto& s : changes) {
                changed = ptx::applyStrengthening(changed, s);
                text += (text.empty() ? "" : ", with ") + ptx::describe(test, s);
            }
            ir::Program p = lower::lowerTest(changed, lowering);
            if (auto axioms = forbiddingAxioms(p, model, outcome, options))
                search.found.push_back({text, *axioms});
        } catch (const InputError&) {
        }
    };
    for (const ptx::Strengthening& s : all) {
        if (search.tried == kMaxRemedyTries) break;
        tryChanges({s});
    }
    // Message passing needs both sides: when no single change does it, pairs of changes in
    // different threads (a release on one side, an acquire on the other).
    if (!search.found.empty() || search.tried < all.size()) return search;
    search.pairs = true;
    for (std::size_t a = 0; a < all.size(); ++a)
        for (std::size_t b = a + 1; b < all.size(); ++b) {
            if (all[a].thread == all[b].thread) continue;
            if (search.tried == 2 * kMaxRemedyTries) return search;
            tryChanges({all[a], all[b]});
        }
    return search;
}

} // namespace ptxmc::engine::explain
