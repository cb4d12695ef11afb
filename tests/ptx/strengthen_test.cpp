// Strengthenings and their diffs: the missing wait of a loop (barrier other threads arrive on,
// parity register the loop flips), and diffs that keep a Windows file's line ends.
#include "litmus/Parser.hpp"
#include "ptx/FixDiff.hpp"
#include "ptx/Print.hpp"
#include "ptx/Strengthen.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <set>

using namespace ptxmc;

namespace {

// A one-stage ring as a loop whose producer (P0) lost its empty wait: it flips ph each round,
// the consumer arrives on empty after its read.
const char* const kLoop = R"(PTX LOOP
{ g = 1; a @ shared 0 = 0; full @ mbarrier 0, count 1; empty @ mbarrier 0, count 1;
  P0:ph = 1; P0:k = 0; P1:ph = 0; P1:k = 0; P1:r = 0; }
 P0@cta 0,gpu 0                                                                  | P1@cta 0,gpu 0 ;
 L0:                                                                             | L1: ;
 mbarrier.arrive.expect_tx.shared::cta.b64 _, [full], 16                         | mbarrier.try_wait.parity.shared::cta.b64 _, [full], ph ;
 cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [a], [g], 16, [full] | ld.shared::cta.u32 r, [a] ;
 xor.b32 ph, ph, 1                                                               | mbarrier.arrive.shared::cta.b64 _, [empty] ;
 add.s32 k, k, 1                                                                 | xor.b32 ph, ph, 1 ;
 setp.lt.s32 p, k, 2                                                             | add.s32 k, k, 1 ;
 @p bra L0                                                                       | setp.lt.s32 p, k, 2 ;
                                                                                 | @p bra L1 ;
exists (P1:r == 0)
)";

std::vector<ptx::Strengthening> loopWaits(const litmus::Test& test) {
    std::vector<ptx::Strengthening> out;
    for (const auto& s : ptx::strengthenings(test))
        if (s.kind == ptx::Strengthening::Kind::MbarrierWait) out.push_back(s);
    return out;
}

} // namespace

TEST_CASE("strengthen: a loop that never waits on a barrier others arrive on can take the wait",
          "[strengthen]") {
    const litmus::Test test = litmus::parseLitmus(kLoop, "loop.litmus");
    const auto waits = loopWaits(test);
    // P0 misses the wait on empty (P1 arrives on it): one place, the round's first memory
    // operation (index 1, after the label), with the register P0 flips. P1 waits on full,
    // which P0 arrives on, so it misses nothing.
    REQUIRE(waits.size() == 1);
    CHECK(waits[0].thread == 0);
    CHECK(waits[0].index == 1);
    CHECK(ptx::changedText(test, waits[0]) ==
          "mbarrier.try_wait.parity.shared::cta.b64 _, [empty], ph");
    CHECK(ptx::describe(test, waits) ==
          "mbarrier.try_wait.parity.shared::cta.b64 _, [empty], ph before P0's "
          "mbarrier.arrive.expect_tx.shared::cta.b64 (line 6)");
    // applied, the wait is P0's first instruction of the round and the test still parses
    const litmus::Test fixed = ptx::applyStrengthenings(test, waits);
    CHECK(ptx::instructionText(fixed.threads[0].code[1]) ==
          "mbarrier.try_wait.parity.shared::cta.b64 _, [empty], ph");
}

TEST_CASE("strengthen: straight-line code gets no loop waits", "[strengthen]") {
    std::string text = kLoop;
    // without the branches the rounds are gone: no loop, no guess
    for (const char* bra : {"@p bra L0", "@p bra L1"})
        text.replace(text.find(bra), std::string(bra).size(), std::string(std::strlen(bra), ' '));
    CHECK(loopWaits(litmus::parseLitmus(text, "line.litmus")).empty());
}

TEST_CASE("fix diff: a CRLF test's lines keep their ends, the last line without one is marked",
          "[strengthen]") {
    std::string crlf;
    for (char c : std::string(kLoop))
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    const litmus::Test test = litmus::parseLitmus(crlf, "loop.litmus");
    const std::string diff = ptx::fixDiff(test, crlf, loopWaits(test));
    // every body line ends as the test's lines do; the header lines are the diff's own
    CHECK(diff.find("--- a/loop.litmus\n+++ b/loop.litmus\n@@ ") == 0);
    CHECK_THAT(diff,
               Catch::Contains("\n+ mbarrier.try_wait.parity.shared::cta.b64 _, [empty], ph"));
    std::size_t bodyLines = 0, crlfLines = 0;
    for (std::size_t at = diff.find("@@", 3); (at = diff.find('\n', at)) != std::string::npos;
         ++at) {
        if (at + 1 >= diff.size()) break;
        ++bodyLines;
        const std::size_t end = diff.find('\n', at + 1);
        crlfLines += end != std::string::npos && diff[end - 1] == '\r';
    }
    CHECK(bodyLines > 3);
    CHECK(crlfLines == bodyLines);
    // the same test without a final line end: the last line, in the hunk, is marked
    std::string unended = kLoop;
    unended.pop_back();
    const litmus::Test t2 = litmus::parseLitmus(unended, "loop.litmus");
    ptx::Strengthening atEnd = loopWaits(t2).at(0);
    atEnd.kind = ptx::Strengthening::Kind::Proxy;
    atEnd.thread = 1;
    atEnd.index = static_cast<int>(t2.threads[1].code.size()) - 1;
    const std::string tail = ptx::fixDiff(t2, unended, {atEnd});
    CHECK_THAT(tail, Catch::EndsWith(" exists (P1:r == 0)\n\\ No newline at end of file\n"));
}

TEST_CASE("strengthen: a loop's wait copies a blocking wait, its parity operand, its own stage "
          "register",
          "[strengthen]") {
    // two stages, register-indexed; the consumer names its stage q, waits with a time hint
    // (try_wait's fourth operand) in a spin on a named result; the producer lost its empty wait
    const char* const ring = R"(PTX RING2
{ g[4] = {1, 2, 4, 8}, stride 16; a[2] @ shared 0 = {0, 0}, stride 16;
  full[2] @ mbarrier 0, count 1; empty[2] @ mbarrier 0, count 1;
  P0:k = 0; P0:ph = 0; P1:k = 0; P1:ph = 0; P1:r = 0; }
 P0@cta 0,gpu 0                                                                                   | P1@cta 0,gpu 0 ;
 LP:                                                                                              | LC: ;
 and.b32 s, k, 1                                                                                  | and.b32 q, k, 1 ;
 xor.b32 pe, ph, 1                                                                                | W: ;
 mbarrier.arrive.expect_tx.shared::cta.b64 _, [full+8*s], 16                                      | mbarrier.try_wait.parity.shared::cta.b64 done, [full+8*q], ph, 1000 ;
 cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [a+16*s], [g+16*k], 16, [full+8*s] | @!done bra W ;
 setp.eq.u32 last, s, 1                                                                           | ld.shared::cta.b32 r, [a+16*q] ;
 @last xor.b32 ph, ph, 1                                                                          | mbarrier.arrive.shared::cta.b64 _, [empty+8*q] ;
 add.s32 k, k, 1                                                                                  | setp.eq.u32 last, q, 1 ;
 setp.lt.s32 more, k, 4                                                                           | @last xor.b32 ph, ph, 1 ;
 @more bra LP                                                                                     | add.s32 k, k, 1 ;
                                                                                                  | setp.lt.s32 more, k, 4 ;
                                                                                                  | @more bra LC ;
exists (P1:r == 0)
)";
    const litmus::Test test = litmus::parseLitmus(ring, "ring2.litmus");
    std::set<std::string> texts;
    for (const auto& s : loopWaits(test))
        if (s.thread == 0) texts.insert(ptx::changedText(test, s));
    // blocking (result dropped), the hint kept, parity in operand 2, indexed by P0's own s
    CHECK(texts.count("mbarrier.try_wait.parity.shared::cta.b64 _, [empty+8*s], pe, 1000"));
    CHECK(texts.count("mbarrier.try_wait.parity.shared::cta.b64 _, [empty+8*s], ph, 1000"));
    for (const std::string& t : texts)
        CHECK(t.find("8*q") == std::string::npos);
}

TEST_CASE("strengthen: a loop closed by a compare-branch takes the wait too", "[strengthen]") {
    std::string text = kLoop;
    const std::string setp =
        " setp.lt.s32 p, k, 2                                                             |";
    const std::string bra =
        " @p bra L0                                                                       |";
    text.replace(text.find(setp), setp.size(), std::string(setp.size() - 1, ' ') + "|");
    text.replace(text.find(bra), bra.size(),
                 " blt k, 2, L0" + std::string(bra.size() - 13, ' ') + "|");
    const litmus::Test test = litmus::parseLitmus(text, "cmp.litmus");
    const auto waits = loopWaits(test);
    REQUIRE(waits.size() == 1);
    CHECK(ptx::changedText(test, waits[0]) ==
          "mbarrier.try_wait.parity.shared::cta.b64 _, [empty], ph");
}
