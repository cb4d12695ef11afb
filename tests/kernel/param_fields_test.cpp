// Parameter fields: given by --param, --params or a dump, read at loads as wide as the load.
#include "../unit/RequireInputError.hpp"
#include "EntryText.hpp"
#include "kernel/ParamFields.hpp"
#include "kernel/VariableLayout.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::kernel;

namespace {

// Four loads: a u32 at +8, a u64 at +8, a u32 at +12, the u64 parameter 1.
const Module& fieldModule() {
    static const Module m = testing::entryModule("\tld.param.u32 %r1, [k_param_0+8];\n"
                                                 "\tld.param.u64 %rd1, [k_param_0+8];\n"
                                                 "\tld.param.u32 %r2, [k_param_0+12];\n"
                                                 "\tld.param.u64 %rd2, [k_param_1];\n"
                                                 "\tret;\n");
    return m;
}

struct FieldsUnderTest {
    Layout layout;
    ParamFields fields;
    std::vector<ParamRead> reads;
    explicit FieldsUnderTest(const Launch& launch)
        : layout(layoutVariables(fieldModule(), fieldModule().functions.at(0), 0)),
          fields(fieldModule().functions.at(0), layout, launch) {}
    /** The load at statement `stmt` of `bytes` bytes at `offset` of the parameter window. */
    Val load(std::size_t stmt, std::uint64_t offset, std::uint64_t bytes) {
        return fields.load(stmt, Val::of(Layout::kGenericParam + offset), 0, bytes, reads);
    }
};

} // namespace

TEST_CASE("param fields: a given field reads its value, one not given names itself",
          "[param-fields]") {
    Launch launch;
    launch.params[{"0", 8}] = 7;
    FieldsUnderTest f(launch);
    CHECK(f.load(0, 8, 4) == Val::of(7));
    Val unknown = f.load(2, 12, 4);
    CHECK_FALSE(unknown.known);
    REQUIRE(unknown.field == 2); // the second read
    CHECK(f.reads.at(1).field() == "0+12");
    CHECK_FALSE(f.reads.at(1).value);
    CHECK(f.load(3, 32, 8).field == 3);
    CHECK(f.reads.at(2).field() == "1");
    CHECK(f.load(0, 8, 4) == Val::of(7));
    CHECK(f.reads.size() == 3); // a load read again is not listed again
    auto missing = f.fields.notGiven(f.reads);
    REQUIRE(missing);
    CHECK_THAT(missing->text, Catch::StartsWith("2 parameter field(s) not given with --param: "
                                                "0+12, 1"));
    CHECK(f.fields.unread(f.reads).empty());
}

TEST_CASE("param fields: a load across given fields is an error at the load", "[param-fields]") {
    Launch launch;
    launch.params[{"k_param_0", 8}] = 1;
    launch.params[{"0", 12}] = 2;
    FieldsUnderTest f(launch);
    testing::requireInputError([&] { f.load(1, 8, 8); }, "", "k.ptx", 15, 2,
                               "this 8-byte load reads parameter bytes 0+8..0+15, which straddle "
                               "the fields 0+8 and 0+12 given with --param");
}

TEST_CASE("param fields: a value wider than its load, a field no load reads", "[param-fields]") {
    Launch launch;
    launch.params[{"0", 8}] = 0x100000000;
    launch.params[{"param_1", 0}] = 5;
    launch.params[{"0", 24}] = 9;
    FieldsUnderTest f(launch);
    testing::requireInputError([&] { f.load(0, 8, 4); }, "", "k.ptx", 14, 2,
                               "--param 0+8=4294967296 does not fit the 4-byte load here");
    CHECK(f.load(3, 32, 8) == Val::of(5));
    std::vector<Note> unread = f.fields.unread(f.reads);
    REQUIRE(unread.size() == 2); // the load of 0+8 failed: it read nothing
    CHECK(unread[1].text == "--param 0+24=9: the kernel never reads parameter field 0+24 in this "
                            "launch");
}

TEST_CASE("param fields: the launch names a parameter or offset the entry lacks",
          "[param-fields]") {
    const Function& k = fieldModule().functions.at(0);
    const Layout layout = layoutVariables(fieldModule(), k, 0);
    Launch launch;
    launch.params[{"2", 0}] = 1;
    testing::requireInputError([&] { ParamFields(k, layout, launch); }, "", "--param", 1, 1,
                               "the entry has no parameter '2' (its parameters: 0 = k_param_0, "
                               "1 = k_param_1)");
    launch.params.clear();
    launch.params[{"1", 8}] = 1;
    testing::requireInputError([&] { ParamFields(k, layout, launch); }, "", "--param", 1, 1,
                               "parameter 1 (param_1) has 8 bytes: offset 8 is outside it");
    launch.params.clear();
    launch.paramBytes["0"] = std::vector<std::uint8_t>(8);
    testing::requireInputError([&] { ParamFields(k, layout, launch); }, "", "--param-bytes", 1, 1,
                               "--param-bytes 0 gives 8 bytes; parameter 0 (param_0) has 32");
}

TEST_CASE("param fields: a dump gives every byte, --param overrides a field", "[param-fields]") {
    Launch launch;
    std::vector<std::uint8_t> bytes(32);
    bytes[8] = 0x34;
    bytes[9] = 0x12;
    bytes[12] = 3;
    launch.paramBytes["k_param_0"] = bytes;
    launch.params[{"0", 12}] = 4;
    FieldsUnderTest f(launch);
    CHECK(f.load(0, 8, 4) == Val::of(0x1234));
    CHECK(f.load(2, 12, 4) == Val::of(4));
    CHECK_FALSE(f.fields.notGiven(f.reads));
}
