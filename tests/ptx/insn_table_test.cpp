// The instruction table (ptx/Instructions.def): ptx::Op's alternatives, their names and families.
#include "ptx/Insn.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace ptxmc::ptx;

TEST_CASE("instruction table: each alternative has its row's name and family", "[insn-table]") {
    CHECK(std::size(kInsnNames) == std::variant_size_v<Op>);
    CHECK(std::string(kInsnNames[Op(Ld{}).index()]) == "Ld");
    CHECK(std::string(kInsnNames[Op(Tcgen05Cp{}).index()]) == "Tcgen05Cp");
    CHECK(std::string(kInsnNames[Op(Exit{}).index()]) == "Exit");
    CHECK(family(Ld{}) == Family::Generic);
    CHECK(family(TensormapCopy{}) == Family::Generic);
    CHECK(family(CpAsyncArrive{}) == Family::Mbarrier);
    CHECK(family(CpAsync{}) == Family::Bulk);
    CHECK(family(Tcgen05Alloc{}) == Family::Tcgen05);
    CHECK(family(Tcgen05Fence{}) == Family::Tcgen05);
    CHECK(family(WgmmaMma{}) == Family::Wgmma);
    CHECK(family(WgmmaWait{}) == Family::Wgmma);
    CHECK(family(Bra{}) == Family::Control);
    CHECK(family(Exit{}) == Family::Control);
}

TEST_CASE("instruction table: a family's rows are contiguous", "[insn-table]") {
    // Families are listed together, so a family switch reads the table in order.
    int changes = 0;
    for (std::size_t i = 1; i < std::size(kFamilies); ++i)
        changes += kFamilies[i] != kFamilies[i - 1];
    CHECK(changes == 5);
}
