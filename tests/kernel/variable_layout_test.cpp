// Where the evaluator places an entry's variables: shared (static, then dynamic), .local, params.
#include "EntryText.hpp"
#include "kernel/VariableLayout.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::kernel;

TEST_CASE("variable layout: static shared from 0x400, dynamic after it", "[variable-layout]") {
    const Module m = testing::entryModule("\tret;\n",
                                          "\t.shared .align 8 .b64 bar[3];\n"
                                          "\t.shared .align 128 .b8 tile[256];\n"
                                          "\t.local .align 4 .b8 depot[12];\n",
                                          ".extern .shared .align 1024 .b8 dyn[];\n");
    const Layout l = layoutVariables(m, m.functions.at(0), 4096);
    REQUIRE(l.shared.count("bar"));
    CHECK(l.shared.at("bar").offset == 0x400);
    CHECK(l.shared.at("bar").bytes == 24);
    CHECK(l.shared.at("tile").offset == 0x480); // 0x418 aligned up to 128
    CHECK(l.shared.at("dyn").offset == 0x800);  // after tile's end (0x580), at 1024
    CHECK(l.shared.at("dyn").bytes == 4096);
    CHECK(l.local.at("depot").offset == 0);
    CHECK(l.params.at("k_param_0").offset == 0);
    CHECK(l.params.at("k_param_1").offset == 32);
    REQUIRE(l.paramOrder.size() == 2);
    auto at = l.sharedAt(0x480 + 10);
    REQUIRE(at);
    CHECK(at->first->var->name == "tile");
    CHECK(at->second == 10);
    CHECK(l.paramAt(36)->first->var->name == "k_param_1");
}
