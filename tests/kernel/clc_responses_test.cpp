// try_cancel's response writes (one per CTA with multicast) and query_cancel over the passes.
#include "../unit/RequireInputError.hpp"
#include "EntryText.hpp"
#include "kernel/Clc.hpp"
#include "kernel/ClcResponses.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using namespace ptxmc::kernel;

namespace {

Step tryCancel(std::uint64_t slot, std::uint64_t mbar) {
    Step st;
    st.parts = {"clusterlaunchcontrol",
                "try_cancel",
                "async",
                "shared::cta",
                "mbarrier::complete_tx::bytes",
                "multicast::cluster::all",
                "b128"};
    RawOperand r, m;
    r.kind = m.kind = RawOperand::Kind::Addr;
    r.value = Val::of(slot);
    m.value = Val::of(mbar);
    st.operands = {r, m};
    return st;
}

} // namespace

TEST_CASE("clc responses: a multicast request writes every CTA's slot", "[clc-responses]") {
    ClcResponses responses;
    responses.beginPass();
    Lane L;
    std::string note = responses.request(L, tryCancel(0x500, 0x400), SourceLoc{}, 2, 2);
    CHECK_THAT(note, Catch::Contains("with --tiles 2 the first 1 request(s) cancel"));
    REQUIRE(L.steps.size() == 2); // a 16-byte bulk copy into each CTA
    CHECK(L.steps[1].operands[0].value == Val::of((1ULL << 24) | 0x500));
    CHECK(L.steps[1].operands[3].value == Val::of((1ULL << 24) | 0x400));
    CHECK(L.steps[1].op == ptx::ModuleOp::CpBulk);
    Lane reader;
    auto first = responses.read(reader, (1ULL << 24) | 0x500);
    REQUIRE(first);
    CHECK(clc::requestOf(first->v) == 0u);
    CHECK_FALSE(responses.read(reader, (1ULL << 24) | 0x500)); // no second response yet
    CHECK(responses.endPass()); // the pass wrote responses the one before did not
    responses.beginPass();      // the next pass: known from the start
    Lane again;
    CHECK(responses.read(again, 0x500));
    testing::requireInputError(
        [&] {
            responses.request(L, tryCancel(0x500, 0x400), SourceLoc{"k.ptx", 3, 1}, 2, 1);
            responses.request(L, tryCancel(0x500, 0x400), SourceLoc{"k.ptx", 3, 1}, 2, 1);
        },
        "", "k.ptx", 3, 1, "try_cancel request 1 follows a failed one");
}

TEST_CASE("clc responses: query_cancel decodes a response", "[clc-responses]") {
    const Module m =
        testing::entryModule("\tclusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p1, "
                             "%rd1;\n"
                             "\tclusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 "
                             "%r1, %rd1;\n");
    const Function& f = m.functions.at(0);
    const testing::BareValues bare;
    const LaneValues& values = bare.values;
    ClcResponses responses;
    Lane L;
    L.regs["%rd1"] = Val::of(clc::response(0));
    const std::array<int, 3> grid{4, 1, 1}, cluster{2, 1, 1};
    responses.query(L, f.body[0].insn, values, 2, grid, cluster, true);
    CHECK(L.regs.at("%p1") == Val::of(1));
    responses.query(L, f.body[1].insn, values, 2, grid, cluster, true);
    CHECK(L.regs.at("%r1") == Val::of(2)); // the next cluster's first CTA
    L.regs["%rd1"] = Val::of(7);
    responses.query(L, f.body[0].insn, values, 2, grid, cluster, false);
    CHECK_FALSE(L.regs.at("%p1").known); // not a response yet: a later pass may know it
    testing::requireInputError(
        [&] { responses.query(L, f.body[0].insn, values, 2, grid, cluster, true); }, "", "k.ptx",
        14, 63, "'%rd1' is not a response a try_cancel of this cluster wrote");
}
