// Instruction lowering: events produced, and malformed programs rejected with positions.
#include "../unit/LitmusText.hpp"
#include "../unit/RequireInputError.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using ir::Tag;
using testing::lowered;

namespace {

std::string wrap(const std::string& p0) {
    return "PTX t\n{ a @ shared 0 = 2; b @ shared 0 = 3; d @ tmem 0 = 0; mb @ mbarrier 0, count 1; "
           "x = 0; }\n"
           " P0@cta 0,gpu 0 ;\n" +
           p0 + "exists (x == 0)\n";
}

void rejects(const std::string& body, int line, int col, const std::string& fragment) {
    testing::requireLoweringError(wrap(body), line, col, fragment);
}

std::size_t count(const ir::Program& p, ir::Tag tag) {
    std::size_t n = 0;
    for (const auto& e : p.events)
        n += e.has(tag) ? 1 : 0;
    return n;
}

} // namespace

TEST_CASE("an mma issues once and executes reads and a write", "[lowering]") {
    auto p = lowered(wrap(" tcgen05.mma.cta_group::1.kind::f16 [d], [a], [b], I0, 1 ;\n"));
    REQUIRE(count(p, Tag::MMA) == 1);
    REQUIRE(count(p, Tag::EXEC) == 4); // read A, read B, read D (accumulate), write D
    for (const auto& e : p.events)
        if (e.has(Tag::EXEC) && e.has(Tag::R) && e.space == ir::Space::Shared)
            REQUIRE(e.has(Tag::ASYNC));
}

TEST_CASE("a list of tensor-memory slices is an access of each", "[lowering]") {
    // ptxmc kernel's slices of an accumulator (docs/kernel.md): the mma writes both slices,
    // the ld reads both (its register takes the first's), the st writes both rows of each
    std::string decls = "PTX t\n{ a @ shared 0 = 2; b @ shared 0 = 3; s0 @ tmem 0, rows 2 = {0, 0};"
                        " s1 @ tmem 0, rows 2 = {0, 0}; x = 0; }\n P0@cta 0,gpu 0 ;\n";
    auto writes = [](const ir::Program& p) {
        std::size_t n = 0;
        for (const auto& e : p.events)
            n += e.has(Tag::EXEC) && e.has(Tag::W) && e.space == ir::Space::Tmem ? 1 : 0;
        return n;
    };
    auto mma = lowered(decls + " tcgen05.mma.cta_group::1.kind::f16 {s0, s1}, [a], [b], I0, 1 ;\n"
                               "exists (x == 0)\n");
    REQUIRE(count(mma, Tag::EXEC) == 6); // read A, read B, and per slice read D, write D
    REQUIRE(writes(mma) == 2);
    auto st = lowered(decls + " tcgen05.st.sync.aligned.32x32b.x2.b32 {s0, s1}, {1, 2} ;\n"
                              "exists (x == 0)\n");
    REQUIRE(writes(st) == 4);
    auto ld = lowered(decls + " tcgen05.ld.sync.aligned.32x32b.x1.b32 {r0}, {s0, s1} ;\n"
                              "exists (P0:r0 == 0)\n");
    REQUIRE(count(ld, Tag::EXEC) == 2);
}

TEST_CASE("bar.sync is an arrival and a completion", "[lowering]") {
    auto p = lowered(wrap(" bar.sync 0 ;\n"));
    REQUIRE(count(p, Tag::BAR_ARRIVE) == 1);
    REQUIRE(count(p, Tag::BAR_WAIT) == 1);
}

TEST_CASE("nanosleep makes no event and keeps the path whole", "[lowering]") {
    auto plain = lowered(wrap(" ld.relaxed.gpu r0, x ;\n"
                              " st.relaxed.gpu x, 1 ;\n"));
    auto slept = lowered(wrap(" ld.relaxed.gpu r0, x ;\n"
                              " nanosleep.u32 20 ;\n"
                              " @r0 nanosleep.u32 r0 ;\n"
                              " st.relaxed.gpu x, 1 ;\n"));
    REQUIRE(slept.events.size() == plain.events.size());
    // The guard on the read value splits no path: the store has no condition, no ctrl.
    for (std::size_t i = 0; i < plain.events.size(); ++i) {
        CHECK(slept.events[i].tags == plain.events[i].tags);
        CHECK((slept.events[i].guard == nullptr) == (plain.events[i].guard == nullptr));
        CHECK(slept.events[i].ctrlSources == plain.events[i].ctrlSources);
    }
    rejects(" nanosleep.u32 20, 40 ;\n", 4, 20, "takes 1 operand(s), found 2");
    rejects(" nanosleep.u32 ;\n", 4, 2, "takes 1 operand(s), found 0");
    rejects(" nanosleep.u32 [x] ;\n", 4, 16, "expected a register or an integer");
    rejects(" nanosleep.u32 r9 ;\n", 4, 16, "never defined");
}

TEST_CASE("malformed tcgen05 programs are rejected with file:line:col", "[lowering]") {
    rejects(" tcgen05.mma.cta_group::1.kind::f16 [d], [a], [b], I0, 0 ;\n"
            " tcgen05.commit.cta_group::2.mbarrier::arrive::one.b64 [mb] ;\n",
            5, 2, "same .cta_group");
    rejects(" tcgen05.commit.cta_group::4.mbarrier::arrive::one.b64 [mb] ;\n", 4, 2,
            "cta_group::4 does not exist");
    rejects(" tcgen05.wait::ld.sync.aligned [d] ;\n", 4, 32, "takes no operands");
    rejects(" tcgen05.wait::ld.cta_group::1.sync.aligned ;\n", 4, 2, "no .cta_group");
    rejects(" tcgen05.frobnicate ;\n", 4, 2, "unknown instruction");
    rejects(" st.relaxed.cta.bogus x, 1 ;\n", 4, 17, "unknown or misplaced qualifier '.bogus'");
    rejects(" st.weak x, r9 ;\n", 4, 13, "never defined");
    rejects(" tcgen05.ld.sync.aligned.32x32b.x1.b32 [d], [a] ;\n", 4, 45, "registers");
    rejects(" tcgen05.mma.cta_group::1.kind::f16 [x], [a], [b], I0, 0 ;\n", 4, 37, "tensor memory");
    rejects(" tcgen05.mma.cta_group::1.kind::f16 {d, x}, [a], [b], I0, 0 ;\n", 4, 41,
            "tensor memory");
    rejects(" tcgen05.st.sync.aligned.32x32b.x1.b32 {d, nothere}, {1} ;\n", 4, 44,
            "not a declared location");
    rejects(" ld.relaxed r0, x ;\n", 4, 2, "needs a scope");
    rejects(" mbarrier.arrive.b64 _, [x] ;\n", 4, 25, "mbarrier memory");
    rejects(" bar.sync 0, 33 ;\n", 4, 14, "multiple of 32");
}

TEST_CASE("conditions must name existing threads and registers", "[lowering]") {
    REQUIRE_THROWS_AS(
        lowered("PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (P3:r0 == 1)\n"),
        InputError);
    REQUIRE_THROWS_AS(
        lowered("PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (P0:r7 == 1)\n"),
        InputError);
}
