// engine::staticRelation: the model's program-determined relations, read as event-id pairs.
#include "../unit/BuiltinModel.hpp"
#include "cat/Loader.hpp"
#include "cat/Resolver.hpp"
#include "engine/StaticRelations.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

using namespace ptxmc;
using testing::builtinModel;

namespace {

// cp, then an mma reading what it copied as A (pair P7), then a commit: litmus/tcgen05/pipeline.
ir::Program cpThenMma() {
    return lower::lowerTest(litmus::parseLitmus(R"(PTX cp-mma
{
  s @ shared 0 = 4;
  b @ shared 0 = 3;
  t @ tmem 0 = 1;
  d @ tmem 0 = 0;
  mb @ mbarrier 0, count 1;
}
 P0@cta 0,gpu 0                                                             ;
 tcgen05.cp.cta_group::1.128x256b [t], [s]                                  ;
 tcgen05.mma.cta_group::1.kind::f16 [d], [t], [b], I0, 0                    ;
 tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mb] ;
exists (d == 3)
)",
                                                "cp-mma.litmus"));
}

// The (instruction of the source, instruction of the target) pairs of a relation in thread 0.
std::set<std::pair<int, int>> byInstruction(const ir::Program& p, const std::string& name) {
    std::set<std::pair<int, int>> out;
    for (const auto& [a, b] : engine::staticRelation(p, builtinModel(), name)) {
        const ir::Event& x = p.events[static_cast<std::size_t>(a)];
        const ir::Event& y = p.events[static_cast<std::size_t>(b)];
        if (x.thread == 0 && y.thread == 0) out.insert({x.instruction, y.instruction});
    }
    return out;
}

} // namespace

TEST_CASE("cp -> an mma reading what it copied as A is the pipelined pair P7",
          "[static-relations]") {
    ir::Program p = cpThenMma();
    CHECK(byInstruction(p, "P7") == std::set<std::pair<int, int>>{{0, 1}});
    // The 9.4 pairs relate operand accesses, whatever their program order: P2 (mma A reads ->
    // cp writes) holds from the mma back to the cp, and `pipe` keeps only issue order.
    CHECK(byInstruction(p, "P2") == std::set<std::pair<int, int>>{{1, 0}});
    // P1 and P6 relate an mma to itself (its A reads and D writes): harmless, the matrix asks
    // only about two different instructions.
    CHECK(byInstruction(p, "P1") == std::set<std::pair<int, int>>{{1, 1}});
    CHECK(byInstruction(p, "P6") == std::set<std::pair<int, int>>{{1, 1}});
    CHECK(byInstruction(p, "pipelined") == std::set<std::pair<int, int>>{{0, 1}, {1, 0}, {1, 1}});
    for (const char* other : {"P3", "P4", "P5", "P8", "P9", "P10", "P11", "P12", "P13"}) {
        INFO(other);
        CHECK(byInstruction(p, other).empty());
    }
}

TEST_CASE("a commit tracks the cp and the mma before it", "[static-relations]") {
    ir::Program p = cpThenMma();
    CHECK(byInstruction(p, "commit-tracks") == std::set<std::pair<int, int>>{{0, 2}, {1, 2}});
}

TEST_CASE("pairs are event ids of the program, sorted", "[static-relations]") {
    ir::Program p = cpThenMma();
    auto pairs = engine::staticRelation(p, builtinModel(), "P7");
    REQUIRE_FALSE(pairs.empty());
    CHECK(std::is_sorted(pairs.begin(), pairs.end()));
    for (const auto& [a, b] : pairs) { // the cp's tensor-memory write, the mma's read of A
        const ir::Event& x = p.events.at(static_cast<std::size_t>(a));
        const ir::Event& y = p.events.at(static_cast<std::size_t>(b));
        CHECK((x.instruction == 0 && x.tags.has(ir::Tag::W) && x.tags.has(ir::Tag::TMEM)));
        CHECK((y.instruction == 1 && y.tags.has(ir::Tag::MMA_READ_A)));
    }
}

TEST_CASE("only relation definitions that the program alone determines", "[static-relations]") {
    ir::Program p = cpThenMma();
    auto rejects = [&](const std::string& name, const std::string& why) {
        INFO(name);
        CHECK_THROWS_WITH(engine::staticRelation(p, builtinModel(), name), Catch::Contains(why));
    };
    rejects("no-such-relation", "no relation definition 'no-such-relation'");
    rejects("Strong", "no relation definition 'Strong'"); // a set
    rejects("po", "no relation definition 'po'");         // a base relation, not a definition
    rejects("fr", "depends on 'rf'");
    rejects("obs", "depends on 'rf'");
}

TEST_CASE("pf-covers (ptx.cat): a proxy fence covers its proxy inside its state-space window",
          "[static-relations]") {
    // Two copies read shared a (CTA 0) and b (CTA 1, same cluster) and write global g and h
    // through the async proxy; P0's fences have windows .shared::cta, .global, .shared::cluster.
    auto p = lower::lowerTest(litmus::parseLitmus(R"(PTX windows
{ a @ shared 0 = 0; b @ shared 1 = 0; g = 0; h = 0; }
 P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;
 cp.async.bulk.global.shared::cta.bulk_group [g], [a], 16 | cp.async.bulk.global.shared::cta.bulk_group [h], [b], 16 ;
 fence.proxy.async.shared::cta | fence.proxy.async ;
 fence.proxy.async.global | ;
 fence.proxy.async.shared::cluster | ;
exists (g == 0)
)",
                                                  "windows.litmus"));
    auto covers = engine::staticRelation(p, builtinModel(), "pf-covers");
    auto fenceAt = [&](int thread, int instruction) {
        for (const auto& e : p.events)
            if (e.thread == thread && e.instruction == instruction) return e.id;
        FAIL("no event");
        return -1;
    };
    // The async-proxy accesses a fence covers, by location name.
    auto covered = [&](int fence) {
        std::multiset<std::string> out;
        for (const auto& [f, x] : covers)
            if (f == fence)
                out.insert(p.locations[static_cast<std::size_t>(
                                           p.events[static_cast<std::size_t>(x)].location)]
                               .name);
        return out;
    };
    using Names = std::multiset<std::string>;
    CHECK(covered(fenceAt(0, 1)) == Names{"a"});                // .shared::cta: its CTA's only
    CHECK(covered(fenceAt(0, 2)) == Names{"g", "h"});           // .global
    CHECK(covered(fenceAt(0, 3)) == Names{"a", "b"});           // .shared::cluster: both CTAs
    CHECK(covered(fenceAt(1, 1)) == Names{"a", "b", "g", "h"}); // no window: every space
}
