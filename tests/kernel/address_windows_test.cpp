// Layout's address windows: shared memory by cluster rank, generic and parameter windows, and
// cvta, mapa and getctarank moving between them.
#include "kernel/AddressWindows.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc::kernel;

namespace {

const std::uint64_t kRank1 = 1ULL << Layout::kRankShift;

} // namespace

TEST_CASE("address windows: a shared address with or without its generic window",
          "[address-windows]") {
    CHECK(Layout::sharedAddress(0x40) == 0x40u);
    CHECK(Layout::sharedAddress(Layout::kGenericShared + kRank1 + 0x40) == kRank1 + 0x40);
    CHECK_FALSE(Layout::sharedAddress(Layout::kGenericParam + 8));
    CHECK_FALSE(Layout::sharedAddress(0x7f0000001000)); // a global address
}

TEST_CASE("address windows: the variable at an offset", "[address-windows]") {
    Layout layout;
    layout.shared["bar"] = Layout::Symbol{nullptr, 0, 16};
    layout.shared["tile"] = Layout::Symbol{nullptr, 128, 1024};
    layout.params["p0"] = Layout::Symbol{nullptr, 0, 8};
    auto at = layout.sharedAt(200);
    REQUIRE(at);
    CHECK(at->first->offset == 128);
    CHECK(at->second == 72);
    CHECK_FALSE(layout.sharedAt(64)); // between the two
    auto param = layout.paramAt(4);
    REQUIRE(param);
    CHECK(param->second == 4);
    CHECK_FALSE(layout.paramAt(8));
}

TEST_CASE("address windows: cvta, mapa and getctarank", "[address-windows]") {
    const std::vector<std::string> toGeneric{"cvta", "shared", "u64"};
    const std::vector<std::string> toShared{"cvta", "to", "shared", "u64"};
    const std::vector<std::string> global{"cvta", "global", "u64"};
    CHECK(cvtaAddress(toGeneric, {Val::of(0x40)}) == Val::of(Layout::kGenericShared + 0x40));
    CHECK(cvtaAddress(toShared, {Val::of(Layout::kGenericShared + 0x40)}) == Val::of(0x40));
    CHECK(cvtaAddress(global, {Val::of(0x1000)}) == Val::of(0x1000));
    CHECK_FALSE(cvtaAddress(toGeneric, {Val{}}).known);
    CHECK(mapaAddress({Val::of(0x40), Val::of(1)}) == Val::of(kRank1 + 0x40));
    CHECK(mapaAddress({Val::of(Layout::kGenericShared + 0x40), Val::of(1)}) ==
          Val::of(Layout::kGenericShared + kRank1 + 0x40));
    CHECK_FALSE(mapaAddress({Val::of(0x40), Val{}}).known);
    CHECK(ctarankOf({Val::of(kRank1 + 0x40)}) == Val::of(1));
    CHECK(ctarankOf({Val::of(Layout::kGenericShared + kRank1)}) == Val::of(1));
}
