// Lowering register-indexed addresses: the element a constant index picks, and the errors.
#include "../unit/LitmusText.hpp"
#include "../unit/RequireInputError.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace ptxmc;
using ir::Tag;
using testing::lowered;

namespace {

/** The shared assertion (unit/RequireInputError.hpp), by the short name the cases use. */
const auto arrayRejects = &testing::requireLoweringError;

/** P0 runs `rows` with `init` declared (and P0:s = 8); the condition is `cond`. */
std::string test(const std::string& rows, const std::string& cond = "P0:s == 8",
                 const std::string& init = " a[4] @ shared 0 = {10, 11, 12, 13};") {
    return "PTX t\n{\n" + init + "\n full[2] @ mbarrier 0, count 1;\n x = 0;\n P0:s = 8;\n}\n" +
           " P0@cta 0,gpu 0 ;\n" + rows + "exists (" + cond + ")\n";
}

/** The names of the locations the thread's writes (issue events) go to, in order. */
std::vector<std::string> writtenNames(const ir::Program& p) {
    std::vector<std::string> out;
    for (const auto& e : p.events)
        if (e.thread >= 0 && e.has(Tag::W) && e.location >= 0)
            out.push_back(p.locations[static_cast<std::size_t>(e.location)].name);
    return out;
}

} // namespace

TEST_CASE("each element of an array is a location of its own", "[lowering][array]") {
    const auto p = lowered(test(" st.shared::cta.u32 a, 1 ;\n"));
    std::vector<std::string> names;
    for (const auto& l : p.locations)
        names.push_back(l.name);
    CHECK(names ==
          std::vector<std::string>{"a[0]", "a[1]", "a[2]", "a[3]", "full[0]", "full[1]", "x"});
    CHECK(writtenNames(p) == std::vector<std::string>{"a[0]"}); // the bare name: element 0
}

TEST_CASE("an index counts bytes: the element is the offset over the stride", "[lowering][array]") {
    const auto p = lowered(test(" st.shared::cta.u32 [a+s], 1 ;\n"        // 8 bytes: a[2]
                                " st.shared::cta.u32 [a+4], 1 ;\n"        // a[1]
                                " st.shared::cta.u32 [a+s*0x0001], 1 ;\n" // a[2]
                                " mov.u32 i, 3 ;\n"
                                " st.shared::cta.u32 [a+4*i], 1 ;\n")); // a[3]
    CHECK(writtenNames(p) == std::vector<std::string>{"a[2]", "a[1]", "a[2]", "a[3]"});
}

TEST_CASE("a counter loop indexes a new element each iteration", "[lowering][array]") {
    const auto p = lowered(test(" mov.u32 k, 0 ;\n"
                                " L: ;\n"
                                " and.b32 i, k, 1 ;\n"
                                " mbarrier.arrive.shared::cta.b64 _, [full+8*i] ;\n"
                                " st.shared::cta.u32 [a+4*k], k ;\n"
                                " add.s32 k, k, 1 ;\n"
                                " setp.lt.s32 p, k, 4 ;\n"
                                " @p bra L ;\n",
                                "a[3] == 3"));
    std::vector<std::string> arrived;
    for (const auto& e : p.events)
        if (e.has(Tag::MB_ARRIVE))
            arrived.push_back(p.locations[static_cast<std::size_t>(e.location)].name);
    CHECK(arrived == std::vector<std::string>{"full[0]", "full[1]", "full[0]", "full[1]"});
    CHECK(writtenNames(p) == std::vector<std::string>{"a[0]", "a[1]", "a[2]", "a[3]"});
    REQUIRE(p.observed.size() == 1);
    CHECK(p.observed[0].name == "a[3]");
}

TEST_CASE("an index out of range, misaligned or not known is an error at the register",
          "[lowering][array]") {
    arrayRejects(test(" st.shared::cta.u32 [a+8*s], 1 ;\n"), 9, 26,
                 "index 16 is outside a[0..3] (byte offset 64: 8*s, s = 8; 4 bytes per element)");
    arrayRejects(test(" st.shared::cta.u32 [a+16], 1 ;\n"), 9, 21, "index 4 is outside a[0..3]");
    arrayRejects(test(" mov.u32 i, -1 ;\n st.shared::cta.u32 [a+4*i], 1 ;\n"), 10, 26,
                 "index -1 is outside a[0..3]");
    arrayRejects(
        test(" mov.u32 i, 6 ;\n st.shared::cta.u32 [a+i], 1 ;\n"), 10, 24,
        "byte offset 6 (i = 6) is not a multiple of the element size of a[0..3] (4 bytes per "
        "element)");
    arrayRejects(test(" ld.relaxed.gpu.u32 r, [x] ;\n st.shared::cta.u32 [a+4*r], 1 ;\n"), 10, 26,
                 "the index register 'r' holds a run-time value here");
    arrayRejects(test(" ld.relaxed.gpu.u32 r, [x] ;\n setp.eq.u32 p, r, 0 ;\n @p mov.u32 i, 1 ;\n"
                      " st.shared::cta.u32 [a+4*i], 1 ;\n"),
                 12, 26, "holds a run-time value");
    arrayRejects(test(" st.shared::cta.u32 [a+4*q], 1 ;\n"), 9, 26,
                 "register 'q' is used but never");
    arrayRejects(test(" st.shared::cta.u32 [a+4*x], 1 ;\n"), 9, 26, "'x' is a location");
    arrayRejects(test(" st.relaxed.gpu.u32 [x+4*s], 1 ;\n"), 9, 26, "'x' is not an array");
    arrayRejects(test(" st.relaxed.gpu.u32 [y+4*s], 1 ;\n"), 9, 21,
                 "'y' is not a declared location");
    arrayRejects(test(" mbarrier.arrive.shared::cta.b64 _, [full+4*s] ;\n"), 9, 45,
                 "index 4 is outside full[0..1]");
}

TEST_CASE("the condition names an element, never the whole array", "[lowering][array]") {
    const auto p = lowered(test(" st.shared::cta.u32 [a+s], 1 ;\n", "a[2] == 1 /\\ a[0] == 10"));
    REQUIRE(p.observed.size() == 2);
    CHECK(p.observed[0].name == "a[2]");
    arrayRejects(test(" st.shared::cta.u32 [a+s], 1 ;\n", "a == 1"), 10, 9,
                 "'a' is an array: name one of its elements, a[0..3]");
    arrayRejects(test(" st.shared::cta.u32 [a+s], 1 ;\n", "a[4] == 1"), 10, 9,
                 "index 4 is outside a[0..3]");
}

TEST_CASE("a copy's events name the elements it reads and writes", "[lowering][array]") {
    const auto p = lowered(
        test(" mov.u32 i, 1 ;\n"
             " cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [a+16*i], [g+16*i], "
             "16, [full+8*i] ;\n",
             "P0:s == 8", " a[2] @ shared 0 = 0, stride 16;\n g[2] = {1, 2}, stride 16;"));
    std::vector<std::string> texts;
    for (const auto& e : p.events)
        if (e.has(Tag::EXEC) && e.location >= 0 && !e.has(Tag::MB)) texts.push_back(e.text);
    REQUIRE(texts.size() == 2);
    CHECK_THAT(texts[0], Catch::EndsWith("(read g[1])"));
    CHECK_THAT(texts[1], Catch::EndsWith("(write a[1])"));
    for (const auto& e : p.events)
        if (e.has(Tag::EXEC) && e.has(Tag::MB))
            CHECK(p.locations[static_cast<std::size_t>(e.location)].name == "full[1]");
}
