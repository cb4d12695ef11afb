// MD5 against RFC 1321's test suite, and the Hash= of a test: what it depends on and what not.
#include "litmus/Parser.hpp"
#include "ptx/TestHash.hpp"
#include "support/Md5.hpp"

#include <catch2/catch.hpp>
#include <string>

TEST_CASE("md5 matches the RFC 1321 test suite", "[support]") {
    using ptxmc::md5Hex;
    CHECK(md5Hex("") == "d41d8cd98f00b204e9800998ecf8427e");
    CHECK(md5Hex("a") == "0cc175b9c0f1b6a831c399e269772661");
    CHECK(md5Hex("abc") == "900150983cd24fb0d6963f7d28e17f72");
    CHECK(md5Hex("message digest") == "f96b697d7cb7938d525a2f31aaf161d0");
    CHECK(md5Hex("abcdefghijklmnopqrstuvwxyz") == "c3fcd3d76192e4007dfb496cca67e13b");
    CHECK(md5Hex("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") ==
          "d174ab98d277d9f5a5611c2c9f419d9f");
    CHECK(md5Hex("1234567890123456789012345678901234567890123456789012345678901234567890123456"
                 "7890") == "57edf4a22be3c955ac49da2e2107b67a");
}

namespace {

std::string hashOf(const std::string& text) {
    return ptxmc::ptx::testHash(ptxmc::litmus::parseLitmus(text, "t.litmus"));
}

const char* const kHashedMp = R"(PTX MP
{ x = 0; flag = 0; }
 P0@cta 0,gpu 0                   | P1@cta 0,gpu 0               ;
 st.relaxed.gpu.global.u32 [x], 1 | ld.relaxed.gpu.u32 r0, [flag] ;
 st.relaxed.gpu.global.u32 [flag], 1 | ld.relaxed.gpu.u32 r1, [x] ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
)";

} // namespace

TEST_CASE("Hash= follows the test's meaning, not its layout", "[ptx]") {
    const std::string base = hashOf(kHashedMp);
    CHECK(base.size() == 32);
    // spacing, declaration order and the name of the test do not matter
    std::string reordered = kHashedMp;
    reordered.replace(reordered.find("x = 0; flag = 0;"), 16, "flag = 0;   x = 0;");
    reordered.replace(reordered.find("PTX MP"), 6, "PTX Other");
    CHECK(hashOf(reordered) == base);
    // an initial value, an instruction or the observed registers do
    std::string init = kHashedMp;
    init.replace(init.find("x = 0"), 5, "x = 7");
    CHECK(hashOf(init) != base);
    std::string code = kHashedMp;
    code.replace(code.find("ld.relaxed.gpu.u32 r0"), 21, "ld.acquire.gpu.u32 r0");
    CHECK(hashOf(code) != base);
    std::string placed = kHashedMp; // P1 in another CTA: .cta scopes reach less
    placed.replace(placed.find("P1@cta 0"), 8, "P1@cta 1");
    CHECK(hashOf(placed) != base);
    std::string observed = kHashedMp;
    observed.replace(observed.find("P1:r1 == 0"), 10, "x == 0");
    CHECK(hashOf(observed) != base);
}
