// The kernel front end's opcode table (ptx/ModuleOps.def): which row, and role, an opcode gets.
#include "ptx/ModuleOps.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace ptxmc;
using ptx::ModuleOp;
using ptx::ModuleRole;

namespace {

ptx::ModuleOpRow rowOf(std::vector<std::string> parts) {
    return ptx::moduleOp(parts);
}

} // namespace

TEST_CASE("module ops: a qualified form comes before its opcode's plain row", "[module-ops]") {
    CHECK(rowOf({"ld", "param", "u64"}).op == ModuleOp::LdParam);
    CHECK(rowOf({"ld", "param", "u64"}).role == ModuleRole::ParamLoad);
    CHECK(rowOf({"ld", "shared", "u32"}).role == ModuleRole::Load);
    CHECK(rowOf({"st", "param", "b64"}).role == ModuleRole::Ignore); // a call's argument
    CHECK(rowOf({"st", "async", "shared::cluster", "b32"}).role == ModuleRole::Event);
    CHECK(rowOf({"st", "global", "u32"}).role == ModuleRole::Store);
    CHECK(rowOf({"red", "async", "relaxed", "cluster", "u32"}).op == ModuleOp::RedAsync);
    CHECK(rowOf({"red", "global", "add", "u32"}).role == ModuleRole::Atomic);
    CHECK(rowOf({"cp", "async", "bulk", "prefetch", "L2", "global"}).role == ModuleRole::Ignore);
}

TEST_CASE("module ops: leading parts are matched in place", "[module-ops]") {
    CHECK(rowOf({"mbarrier", "try_wait", "parity", "b64"}).role == ModuleRole::Wait);
    CHECK(rowOf({"mbarrier", "arrive", "b64"}).op == ModuleOp::MbarrierArrive);
    CHECK(rowOf({"mbarrier", "arrive", "expect_tx", "b64"}).op == ModuleOp::MbarrierArrive);
    CHECK(rowOf({"mbarrier", "expect_tx", "b64"}).op == ModuleOp::Mbarrier);
    CHECK(rowOf({"cp", "async", "bulk", "tensor", "2d"}).op == ModuleOp::CpBulkTensor);
    CHECK(rowOf({"cp", "async", "bulk", "commit_group"}).op == ModuleOp::CpBulk);
    CHECK(rowOf({"cp", "reduce", "async", "bulk", "tensor"}).op == ModuleOp::CpReduceBulkTensor);
    CHECK(rowOf({"cp", "reduce", "async", "bulk", "global"}).op == ModuleOp::CpReduce);
    CHECK(rowOf({"cp", "async", "mbarrier", "arrive", "b64"}).op == ModuleOp::CpAsyncMbarrier);
    CHECK(rowOf({"cp", "async", "ca", "shared", "global"}).op == ModuleOp::CpAsync);
    CHECK(rowOf({"tcgen05", "dealloc", "cta_group::1"}).op == ModuleOp::Tcgen05);
    CHECK(rowOf({"tcgen05", "alloc", "cta_group::1"}).op == ModuleOp::Tcgen05Alloc);
    CHECK(rowOf({"bar", "warp", "sync"}).role == ModuleRole::Ignore);
    CHECK(rowOf({"bar", "sync"}).role == ModuleRole::Event);
    CHECK(rowOf({"clusterlaunchcontrol", "try_cancel", "async"}).role == ModuleRole::Event);
    CHECK(rowOf({"clusterlaunchcontrol", "query_cancel", "is_canceled", "pred", "b128"}).role ==
          ModuleRole::ClcQuery);
}

TEST_CASE("module ops: an opcode without a row is data, a row is found by its op", "[module-ops]") {
    CHECK(rowOf({"fma", "rn", "f32"}).op == ModuleOp::Other);
    CHECK(rowOf({"fma", "rn", "f32"}).role == ModuleRole::Data);
    CHECK(rowOf({}).op == ModuleOp::Other);
    CHECK(rowOf({"prmt", "b32"}).role == ModuleRole::Data);
    CHECK(ptx::moduleOpRow(ModuleOp::Shfl).role == ModuleRole::Collective);
    CHECK(ptx::moduleOpRow(ModuleOp::Tld4).role == ModuleRole::Unsupported);
    CHECK(ptx::moduleOpRow(ModuleOp::Other).role == ModuleRole::Data);
}

TEST_CASE("module ops: a qualifier is a whole dotted part, or one with more :: levels",
          "[module-ops]") {
    const std::vector<std::string> copy = {
        "cp", "async",           "bulk",   "tensor",
        "2d", "shared::cluster", "global", "multicast::cluster::32b"};
    CHECK(ptx::hasQualifier(copy, "shared::cluster"));
    CHECK(ptx::hasQualifier(copy, "shared")); // shared::cluster is a form of .shared
    CHECK(ptx::hasQualifier(copy, "multicast::cluster"));
    CHECK(ptx::hasQualifier(copy, "multicast"));
    CHECK_FALSE(ptx::hasQualifier(copy, "cluster")); // a level of a part, not a part
    CHECK_FALSE(ptx::hasQualifier(copy, "shared::cta"));
    CHECK_FALSE(ptx::hasQualifier(copy, "glob")); // no prefix of a word
    CHECK_FALSE(ptx::hasQualifier(copy, "cp"));   // the opcode's name is no qualifier
    CHECK(ptx::hasQualifier({"barrier", "cluster", "arrive"}, "cluster"));
    CHECK_FALSE(ptx::hasQualifier({}, "cluster"));
}
