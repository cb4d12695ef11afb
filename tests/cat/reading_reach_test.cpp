// Which readings each definition reaches: what a reading's bounds may take from the default's.
#include "cat/Loader.hpp"
#include "cat/ReadingReach.hpp"
#include "cat/Readings.hpp"
#include "cat/Resolver.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;

namespace {

/** `let name = (rel under reading, else name)` after the statement defining `name`. */
void chooseUnder(cat::Model& m, const std::string& name, const std::string& reading,
                 const std::string& rel) {
    for (std::size_t i = 0; i < m.stmts.size(); ++i) {
        const cat::Stmt& s = m.stmts[i];
        if (s.kind != cat::Stmt::Kind::Let || s.bindings.at(0).name != name) continue;
        cat::Stmt choice = s;
        auto previous = std::make_shared<cat::Expr>();
        previous->name = name;
        auto under = std::make_shared<cat::Expr>();
        under->name = rel;
        auto pick = std::make_shared<cat::Expr>();
        pick->op = cat::Expr::Op::Reading;
        pick->name = reading;
        pick->args = {under, previous};
        choice.bindings.at(0).expr = pick;
        m.stmts.insert(m.stmts.begin() + static_cast<std::ptrdiff_t>(i) + 1, choice);
        return;
    }
    FAIL("no definition " << name);
}

/** The readings the last definition named `name` reaches. */
std::set<std::string> reached(const cat::ResolvedModel& m, const cat::ReadingReach& reach,
                              const std::string& name) {
    for (std::size_t i = m.definitions.size(); i-- > 0;)
        if (m.definitions[i].name == name) return reach.ofDefinition(static_cast<int>(i));
    FAIL("no definition " << name);
    return {};
}

} // namespace

TEST_CASE("a definition reaches the readings of what it names, and only those", "[readings]") {
    cat::Model text = cat::parseModelText("M\nlet a = po\nlet b = rf\nlet c = a | b\n"
                                          "let d = b ; b\nlet rec e = c | (e ; e)\n"
                                          "acyclic e as X\nflag ~empty d as F\n",
                                          "m.cat");
    chooseUnder(text, "a", "variants/x.cat", "co");
    chooseUnder(text, "d", "variants/y.cat", "po");
    const auto m = cat::resolveModel(text);
    const cat::ReadingReach reach(*m);
    using Set = std::set<std::string>;
    CHECK(reached(*m, reach, "a") == Set{"variants/x.cat"});
    CHECK(reached(*m, reach, "b").empty());
    CHECK(reached(*m, reach, "c") == Set{"variants/x.cat"});         // through a
    CHECK(reached(*m, reach, "d") == Set{"variants/y.cat"});         // its own choice
    CHECK(reached(*m, reach, "e") == Set{"variants/x.cat"});         // let rec: through c
    CHECK(reach.of(*m->axioms.at(1).expr) == Set{"variants/y.cat"}); // the flag reads d
}

TEST_CASE("in the built-in model, the definitions no variant redefines below reach none",
          "[readings]") {
    const auto m = cat::resolveModel(cat::builtinModelWithReadings());
    const cat::ReadingReach reach(*m);
    std::size_t none = 0, some = 0;
    for (std::size_t i = 0; i < m->definitions.size(); ++i)
        (reach.ofDefinition(static_cast<int>(i)).empty() ? none : some) += 1;
    // Both kinds exist: a reading's bounds take the first from the default's evaluation.
    CHECK(none > 0);
    CHECK(some > 0);
    std::set<std::string> all;
    for (const cat::ReadingInfo& r : m->readings)
        all.insert(r.reading.modelFile());
    for (std::size_t i = 0; i < m->definitions.size(); ++i)
        for (const std::string& r : reach.ofDefinition(static_cast<int>(i)))
            CHECK(all.count(r) == 1);
}
