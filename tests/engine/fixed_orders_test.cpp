// engine::fixedCoherence: the co pairs an axiom irreflexive (co ; S) fixes, and the answers it
#include "../unit/BuiltinModel.hpp"
// keeps.
#include "cat/Loader.hpp"
#include "cat/Resolver.hpp"
#include "check/Check.hpp"
#include "engine/FixedOrders.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using testing::builtinModel;

namespace {

std::shared_ptr<const cat::ResolvedModel> modelOf(const std::string& text) {
    return cat::resolveModel(cat::parseModelText(text, "test.cat"));
}

// Three stores to x in P0 (relaxed, relaxed, weak), one in P1, an async copy writing x in P0.
ir::Program writes() {
    return lower::lowerTest(litmus::parseLitmus(R"(PTX writes
{
  x = 0;
}
 P0@cta 0,gpu 0        | P1@cta 1,gpu 0         ;
 st.relaxed.gpu [x], 1 | st.relaxed.gpu [x], 4  ;
 st.relaxed.gpu [x], 2 | ld.relaxed.gpu r0, [x] ;
 st.weak [x], 3        |                        ;
exists (x == 1)
)",
                                                "writes.litmus"));
}

std::vector<std::pair<int, int>> byValue(const ir::Program& p,
                                         const std::vector<std::pair<int, int>>& pairs) {
    std::vector<std::pair<int, int>> out;
    for (const auto& [a, b] : pairs)
        out.emplace_back(static_cast<int>(p.events[static_cast<std::size_t>(a)].written->constant),
                         static_cast<int>(p.events[static_cast<std::size_t>(b)].written->constant));
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("Write-Program-Order fixes a thread's writes to one address in program order") {
    ir::Program p = writes();
    engine::FixedCoherence fixed = engine::fixedCoherence(p, builtinModel());
    CHECK(fixed.axioms == std::vector<std::string>{"Write-Program-Order"});
    // Same thread, program order, both writes (weak ones too: po makes them morally strong);
    // nothing across threads, nothing with the initial write.
    CHECK(byValue(p, fixed.pairs) == std::vector<std::pair<int, int>>{{1, 2}, {1, 3}, {2, 3}});
}

TEST_CASE("Only irreflexive (co , S) with S pairwise and static fixes pairs") {
    ir::Program p = writes();
    const std::string base = "let co-serial = co\nlet same = po & loc\n";
    CHECK(engine::fixedCoherence(p, *modelOf(base + "irreflexive (co-serial ; same) as A\n"))
              .pairs.size() == 3);
    // S reaches through a third event, or depends on an execution's choices, or the test is
    // another one: nothing is fixed.
    for (const char* axiom :
         {"irreflexive (co-serial ; (po ; po)) as A\n",
          "irreflexive (co-serial ; (po & rf^-1 ; rf)) as A\n", "acyclic (co-serial | same) as A\n",
          "irreflexive (same ; co-serial) as A\n", "flag ~empty (co-serial ; same) as A\n"}) {
        INFO(axiom);
        CHECK(engine::fixedCoherence(p, *modelOf(base + axiom)).pairs.empty());
    }
}

TEST_CASE("Fixed orders change no answer: states, verdict and flags on and off") {
    ir::Program p = writes();
    engine::CheckOptions on, off;
    off.fixedOrders = false;
    engine::CheckResult a = engine::check(p, builtinModel(), on);
    engine::CheckResult b = engine::check(p, builtinModel(), off);
    CHECK(engine::sameAnswer(a, b));
    CHECK(a.states.size() == b.states.size());
    CHECK(a.observation == engine::Observation::Never); // x == 1 needs 1 last, after 2 and 3
}

TEST_CASE("Leaving out the fixing axiom asks an encoding without the fixed pairs") {
    // WPO forbids serializing P0's second write first, NoProgramOrder the other way round:
    // no execution is left, and deleting either axiom lets one through. An encoding that
    // fixed WPO's pairs would find nothing without WPO either.
    ir::Program p = lower::lowerTest(litmus::parseLitmus(R"(PTX CoWW-only
{
  x = 0;
}
 P0@cta 0,gpu 0        ;
 st.relaxed.gpu [x], 1 ;
 st.relaxed.gpu [x], 2 ;
forall (x == 1)
)",
                                                         "coww.litmus"));
    auto model = modelOf("let co-serial = co\nlet same = po & loc & (W * W)\n"
                         "irreflexive (co-serial ; same) as WPO\n"
                         "empty (co-serial & same) as NoProgramOrder\n");
    engine::CheckResult r = engine::check(p, *model, engine::CheckOptions{});
    REQUIRE(r.forbiddenBy.has_value());
    CHECK(*r.forbiddenBy == std::vector<std::string>{"NoProgramOrder", "WPO"});
}
