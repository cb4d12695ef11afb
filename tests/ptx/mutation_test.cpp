// Mutants: which weakenings each synchronising instruction has, and the text they produce.
#include "litmus/Parser.hpp"
#include "ptx/Mutation.hpp"
#include "support/SourceLoc.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;

namespace {

const char* const kMp = R"(PTX MP
{ x = 0; flag = 0; P1:r0 = 0; P1:r1 = 0; }
 P0@cta 0,gpu 0                    | P1@cta 1,gpu 0 ;
 st.relaxed.gpu.global.u32 [x], 1  | ld.acquire.gpu.global.u32 r0, [flag] ;
 st.release.gpu.global.u32 [flag], 1 | ld.global.u32 r1, [x] ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
)";

// A TMA producer and a consumer: arrive.expect_tx, a token arrive whose result is waited on,
// a fence.sc, a bulk-group wait, a barrier.
const char* const kRing = R"(PTX RING
{ g = 1; a @ shared 0 = 0; full @ mbarrier 0, count 1; mb @ mbarrier 0, count 2; P1:r0 = 0; }
 P0@cta 0,gpu 0                                                                  | P1@cta 0,gpu 0 ;
 mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 _, [full], 16         | mbarrier.try_wait.parity.shared::cta.b64 _, [full], 0 ;
 cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [a], [g], 16, [full] | ld.shared::cta.u32 r0, [a] ;
 mbarrier.arrive.shared::cta.b64 s, [mb]                                          | fence.sc.cta ;
 mbarrier.test_wait.shared::cta.b64 p, [mb], s                                    | cp.async.bulk.wait_group 0 ;
 bar.sync 0                                                                       | bar.sync 0 ;
exists (P1:r0 == 0)
)";

using Kind = ptx::Mutation::Kind;

std::vector<std::string> names(const std::vector<ptx::Mutation>& ms) {
    std::vector<std::string> out;
    for (const auto& m : ms)
        out.push_back(ptx::toString(m));
    return out;
}

} // namespace

TEST_CASE("hardware mutants: fences first, then orderings, scopes, waits", "[mutation]") {
    auto test = litmus::parseLitmus(kMp, "t.litmus");
    CHECK(names(ptx::hardwareMutations(test)) ==
          std::vector<std::string>{"relax:P0:1", "relax:P1:0", "cta:P0:0", "cta:P0:1", "cta:P1:0"});
    auto ring = litmus::parseLitmus(kRing, "ring.litmus");
    // No arrive, expect_tx, commit or barrier is dropped for hardware: those mutants hang.
    CHECK(names(ptx::hardwareMutations(ring)) ==
          std::vector<std::string>{"drop:P1:2", "relax:P0:0", "relax:P0:2", "relax:P0:3",
                                   "relax:P1:0", "read:P1:3", "cta:P0:0", "drop:P1:0",
                                   "drop:P1:3"});
}

TEST_CASE("every synchronising instruction has its weakenings, strongest first", "[mutation]") {
    auto ring = litmus::parseLitmus(kRing, "ring.litmus");
    CHECK(names(ptx::allMutations(ring)) ==
          std::vector<std::string>{"drop:P0:0", "relax:P0:0", "cta:P0:0",
                                   "plain:P0:0",              // arrive.expect_tx
                                   "relax:P0:2",              // s is waited on: kept
                                   "drop:P0:3", "relax:P0:3", // p is unused
                                   "drop:P0:4", "drop:P1:0", "relax:P1:0", "drop:P1:2",
                                   "acqrel:P1:2", "drop:P1:3", "read:P1:3", "drop:P1:4"});
}

TEST_CASE("a mutant prints the weakened instruction canonically", "[mutation]") {
    auto test = litmus::parseLitmus(kMp, "t.litmus");
    auto t = ptx::applyMutation(test, *ptx::parseMutation("relax:P1:0"));
    CHECK(t.name == "MP~relax:P1:0");
    CHECK(t.threads[1].code[0].opcode == "ld.relaxed.gpu.global.u32");
    CHECK(t.threads[1].code[0].parts ==
          std::vector<std::string>{"ld", "relaxed", "gpu", "global", "u32"});
    auto c = ptx::applyMutation(test, *ptx::parseMutation("cta:P0:1"));
    CHECK(c.threads[0].code[1].opcode == "st.release.cta.global.u32");

    auto ring = litmus::parseLitmus(kRing, "ring.litmus");
    auto plain = ptx::applyMutation(ring, *ptx::parseMutation("plain:P0:0"));
    CHECK(plain.threads[0].code[0].opcode == "mbarrier.arrive.release.cluster.shared::cta.b64");
    CHECK(plain.threads[0].code[0].operands.size() == 2); // the tx count is gone
    // An mbarrier's default semantics is written out as .relaxed in PTX order, before the space,
    // with its default scope .cta spelled out: ptxas rejects .relaxed without a scope.
    auto relaxed = ptx::applyMutation(ring, *ptx::parseMutation("relax:P1:0"));
    CHECK(relaxed.threads[1].code[0].opcode ==
          "mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64");
    auto sc = ptx::applyMutation(ring, *ptx::parseMutation("acqrel:P1:2"));
    CHECK(sc.threads[1].code[2].opcode == "fence.acq_rel.cta");
    // A barrier is dropped from every thread of the CTA: one participant less only deadlocks.
    auto drop = ptx::applyMutation(ring, *ptx::parseMutation("drop:P1:4"));
    CHECK(drop.threads[0].code.size() == 4);
    CHECK(drop.threads[1].code.size() == 4);
    auto wait = ptx::applyMutation(ring, *ptx::parseMutation("drop:P1:0"));
    CHECK(wait.threads[0].code.size() == 5);
    CHECK(wait.threads[1].code.front().opcode == "ld.shared::cta.u32");
}

TEST_CASE("a mutation that does not apply is an input error at the instruction", "[mutation]") {
    auto test = litmus::parseLitmus(kMp, "t.litmus");
    CHECK_FALSE(ptx::parseMutation("drop:P0"));
    CHECK_FALSE(ptx::parseMutation("weaken:P0:1"));
    CHECK_THROWS_WITH(ptx::applyMutation(test, *ptx::parseMutation("drop:P0:0")),
                      Catch::Contains("t.litmus:4:2: error: mutation drop:P0:0: "
                                      "'st.relaxed.gpu.global.u32' cannot be weakened by drop "
                                      "(its weakenings: cta)"));
    CHECK_THROWS_AS(ptx::applyMutation(test, *ptx::parseMutation("drop:P3:0")), InputError);
    CHECK_THROWS_AS(ptx::applyMutation(test, *ptx::parseMutation("drop:P0:9")), InputError);
    auto ring = litmus::parseLitmus(kRing, "ring.litmus");
    // Dropping the token arrive would leave `s` undefined for the test_wait after it.
    CHECK_THROWS_WITH(ptx::applyMutation(ring, *ptx::parseMutation("drop:P0:2")),
                      Catch::Contains("its weakenings: relax"));
}

TEST_CASE("a fence whose syntax fixes its scope at .cluster is not narrowed", "[mutation]") {
    // "the .scope must be specified as .cluster" for the .sync_restrict fences and their proxy
    // forms ({Membar}); fence.mbarrier_init is .release.cluster only: a .cta mutant would not
    // decode, and `ptxmc patterns` counted it as a check without an answer
    const char* const text = R"(PTX FIXED
{ x = 0; P0:r0 = 0; }
 P0@cta 0,gpu 0 ;
 fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster ;
 fence.acquire.sync_restrict::shared::cluster.cluster ;
 fence.mbarrier_init.release.cluster ;
 fence.acq_rel.cluster ;
exists (P0:r0 == 0)
)";
    const litmus::Test test = litmus::parseLitmus(text, "fixed.litmus");
    const litmus::Thread& t = test.threads.at(0);
    for (std::size_t i = 0; i < 3; ++i) {
        INFO("instruction " << i);
        const auto kinds = ptx::weakenings(test, t, i);
        CHECK(std::find(kinds.begin(), kinds.end(), Kind::Cta) == kinds.end());
    }
    const auto last = ptx::weakenings(test, t, 3);
    CHECK(std::find(last.begin(), last.end(), Kind::Cta) != last.end());
}
