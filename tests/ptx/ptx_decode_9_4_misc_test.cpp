// Decoder tests of issue 50's last 9.4 group: tensor modes, tensor reductions, proxy fences.
#include "../unit/LitmusText.hpp"
#include "../unit/RequireInputError.hpp"
#include "litmus/Parser.hpp"
#include "ptx/Decode.hpp"
#include "ptx/Print.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using testing::parseInsn;

namespace {

/** The one instruction of a one-thread test whose code is `text`. */
ptx::Insn decodeText(const std::string& text) {
    return ptx::decode(parseInsn(text));
}

/** `text` must fail to decode with an error on its line of t.litmus that contains `why`. */
void requireDecodeError(const std::string& text, const std::string& why) {
    INFO(text);
    try {
        decodeText(text);
    } catch (const InputError& e) {
        CHECK(e.loc().file == "t.litmus");
        CHECK(e.loc().line == 4);
        CHECK_THAT(e.message(), Catch::Contains(why));
        return;
    }
    FAIL("no error was reported");
}

} // namespace

// {CpReduceAsyncBulkTensor}: .global.shared::cta, .bulk_group, a .redOp, no .type.
TEST_CASE("cp.reduce.async.bulk.tensor decodes to a tensor reduction and prints in PTX order",
          "[ptx]") {
    ptx::Insn op = decodeText(
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.bulk_group.L2::cache_hint.min.tile "
        "[t, {c0, c1}], [s], pol");
    const auto* c = op.as<ptx::BulkCopy>();
    REQUIRE(c);
    CHECK(c->dims == 2);
    CHECK(c->reduce == ptx::AtomOp::Min);
    CHECK(c->dst == ptx::StateSpace::Global);
    CHECK(c->src == ptx::StateSpace::SharedCta);
    CHECK_FALSE(c->viaMbarrier);
    CHECK(c->cacheHint);
    CHECK(c->types.empty());
    // the opcode in PTX order (print() writes a tile operand as [t], without its coordinates)
    CHECK(ptx::printOpcode(op.op) ==
          "cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group.L2::cache_hint");
    REQUIRE(op.operands.size() == 3);
    CHECK(op.operands[0].elements.size() == 2);
    // without .tile (the default load mode) it prints without it
    CHECK(ptx::printOpcode(decodeText("cp.reduce.async.bulk.tensor.1d.global.shared::cta.xor."
                                      "bulk_group [t, {c0}], [s]")
                               .op) ==
          "cp.reduce.async.bulk.tensor.1d.global.shared::cta.xor.bulk_group");
}

TEST_CASE("cp.reduce.async.bulk.tensor refuses the forms the text does not have", "[ptx]") {
    auto fails = [](const std::string& text, const std::string& why) {
        requireDecodeError(text, why);
    };
    fails(
        "cp.reduce.async.bulk.tensor.1d.shared::cluster.shared::cta.add.tile.bulk_group [t, {c}], "
        "[s]",
        "is .global.shared::cta");
    fails("cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.mbarrier::complete_tx::bytes "
          "[t, {c}], [s], [mb]",
          "completion mechanism is .bulk_group");
    fails("cp.reduce.async.bulk.tensor.1d.global.shared::cta.exch.bulk_group [t, {c}], [s]",
          "needs .redOp");
    fails("cp.reduce.async.bulk.tensor.global.shared::cta.add.bulk_group [t, {c}], [s]",
          "needs its dimension");
    fails("cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.im2col_no_offs.bulk_group "
          "[t, {a, b, c}], [s]",
          "im2col_no_offs load modes are not supported");
    fails("cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.bulk_group.u32 [t, {c}], [s]",
          "unknown or misplaced qualifier '.u32'");
}

// {Membar}: fence.proxy.to_proxykind::from_proxykind_fabric.alias.sem_fabric.sys (9.3)
TEST_CASE("fabric proxy fences decode as .release/.acquire .sys proxy fences of their own kind",
          "[ptx]") {
    struct Case {
        const char* text;
        ptx::ProxyKind kind;
        ptx::Sem sem;
    };
    const Case cases[] = {
        {"fence.proxy.generic::fabric.alias.release.sys", ptx::ProxyKind::GenericFabric,
         ptx::Sem::Release},
        {"fence.proxy.fabric::generic.alias.acquire.sys", ptx::ProxyKind::FabricGeneric,
         ptx::Sem::Acquire},
        {"fence.proxy.fabric::fabric.alias.release.sys", ptx::ProxyKind::FabricFabric,
         ptx::Sem::Release},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        ptx::Insn in = decodeText(c.text);
        const auto* f = in.as<ptx::ProxyFence>();
        REQUIRE(f);
        CHECK(f->kind == c.kind);
        CHECK(f->sem == c.sem);
        CHECK(f->scope == ptx::Scope::Sys);
        CHECK(ptx::print(in) == c.text);
    }
    // written in another qualifier order, printed in the syntax's
    CHECK(ptx::print(decodeText("fence.proxy.alias.sys.acquire.fabric::fabric")) ==
          "fence.proxy.fabric::fabric.alias.acquire.sys");
    requireDecodeError("fence.proxy.generic::fabric.release.sys", ".alias.{release,acquire}.sys");
    requireDecodeError("fence.proxy.fabric::generic.alias.sys", ".alias.{release,acquire}.sys");
    requireDecodeError("fence.proxy.fabric::generic.alias.release.gpu", "needs scope .sys");
    requireDecodeError("fence.proxy.fabric::generic.alias.acq_rel.sys",
                       ".alias.{release,acquire}.sys");
}

// "On sm_70 and higher, membar.proxy is a synonym for fence.proxy" ({Membar})
TEST_CASE("membar.proxy decodes as the fence.proxy of its proxykind and prints as written",
          "[ptx]") {
    for (const char* text :
         {"membar.proxy.alias", "membar.proxy.async", "membar.proxy.async.global",
          "membar.proxy.async.shared::cta", "membar.proxy.async.shared::cluster"}) {
        INFO(text);
        ptx::Insn in = decodeText(text);
        const auto* f = in.as<ptx::ProxyFence>();
        REQUIRE(f);
        CHECK(f->membar);
        CHECK(ptx::print(in) == text);
        // the same fence as fence.proxy.KIND but for the spelling
        ptx::ProxyFence same = std::get<ptx::ProxyFence>(
            decodeText(std::string("fence.proxy") + (text + std::string("membar.proxy").size()))
                .op);
        CHECK(f->kind == same.kind);
        CHECK(f->space == same.space);
        CHECK_FALSE(same.membar);
    }
    requireDecodeError("membar.proxy.tensormap::generic.release.gpu", "membar.proxy takes .alias");
    requireDecodeError("membar.proxy.alias.release.sys", "membar.proxy takes .alias");
    requireDecodeError("membar.proxy.generic::fabric.alias.release.sys",
                       "membar.proxy takes .alias");
}

// {CpAsyncBulkTensor}: .load_mode = { .tile, .tile::gather4, .im2col, .im2col::w, .im2col::w::128 }
// loading, { .tile, .tile::scatter4, .im2col_no_offs, .im2col_no_offs::w } storing
TEST_CASE("tensor copies decode their load modes, each in its direction and dimensions", "[ptx]") {
    // {opcode, operands}: the opcode round-trips; the tile keeps its coordinates (print() writes
    // a tile operand as [t], without them)
    const std::pair<const char*, const char*> canonical[] = {
        {"cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::"
         "bytes",
         " [a], [t, {c, r0, r1, r2, r3}], [mb]"},
        {"cp.async.bulk.tensor.3d.shared::cta.global.im2col.mbarrier::complete_tx::bytes",
         " [a], [t, {c0, c1, c2}], [mb], {o0}"},
        {"cp.async.bulk.tensor.4d.shared::cluster.global.im2col::w::128.mbarrier::complete_tx::"
         "bytes.multicast::cluster",
         " [a], [t, {c0, c1, c2, c3}], [mb], {h, o}, 3"},
        {"cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group",
         " [t, {c, r0, r1, r2, r3}], [a]"},
        {"cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs::w.bulk_group",
         " [t, {c0, c1, c2}], [a]"},
    };
    for (const auto& [opcode, operands] : canonical) {
        INFO(opcode << operands);
        ptx::Insn in = decodeText(std::string(opcode) + operands);
        CHECK(ptx::printOpcode(in.op) == opcode);
        const auto& tile =
            in.operands.at(in.as<ptx::BulkCopy>()->dst == ptx::StateSpace::Global ? 0 : 1);
        CHECK(tile.elements.size() ==
              (in.as<ptx::BulkCopy>()->loadMode.rfind("tile::", 0) == 0
                   ? 5u
                   : static_cast<std::size_t>(in.as<ptx::BulkCopy>()->dims)));
    }
    CHECK(decodeText("cp.async.bulk.tensor.3d.shared::cta.global.im2col::w.mbarrier::complete_tx::"
                     "bytes [a], [t, {c0, c1, c2}], [mb], {h, o}")
              .as<ptx::BulkCopy>()
              ->loadMode == "im2col::w");
    requireDecodeError("cp.async.bulk.tensor.2d.global.shared::cta.tile::gather4.bulk_group "
                       "[t, {c, r0, r1, r2, r3}], [a]",
                       "is a global-to-shared mode");
    requireDecodeError("cp.async.bulk.tensor.2d.shared::cta.global.tile::scatter4.mbarrier::"
                       "complete_tx::bytes [a], [t, {c, r0, r1, r2, r3}], [mb]",
                       "is a shared::cta-to-global mode");
    requireDecodeError("cp.async.bulk.tensor.3d.shared::cta.global.tile::gather4.mbarrier::"
                       "complete_tx::bytes [a], [t, {c, r0, r1, r2, r3}], [mb]",
                       "four rows of a 2-dimensional tensor: .2d");
    requireDecodeError("cp.async.bulk.tensor.2d.shared::cta.global.im2col.mbarrier::complete_tx::"
                       "bytes [a], [t, {c0, c1}], [mb], {o}",
                       "at least 3-dimensional");
    requireDecodeError("cp.async.bulk.tensor.3d.shared::cta.global.tile.im2col.mbarrier::complete_"
                       "tx::bytes [a], [t, {c0, c1, c2}], [mb], {o}",
                       "takes one .load_mode");
}
