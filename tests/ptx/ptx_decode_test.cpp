// ptx::decode and ptx::print: round trips on every family, the qualifier tables, decode errors.
#include "../unit/LitmusText.hpp"
#include "../unit/RequireInputError.hpp"
#include "litmus/Parser.hpp"
#include "ptx/Decode.hpp"
#include "ptx/Print.hpp"
#include "ptx/Tables.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;
using testing::parseInsn;

namespace {

/** The one instruction of a one-thread test whose code is `text`. */
std::string roundTrip(const std::string& text) {
    return ptx::print(ptx::decode(parseInsn(text)));
}

} // namespace

TEST_CASE("decode then print gives back canonical PTX for every family", "[ptx]") {
    const char* canonical[] = {
        "ld.acquire.gpu.global.u32 r0, [x]",
        "ld.volatile.shared::cta.b32 r0, [x@1+2]",
        "ldc.b32 r0, [x]",
        "st.release.sys.global.u32 [x], 1",
        "sust.b32 [x], r1",
        "atom.acq_rel.cluster.shared::cluster.cas.b32 r0, [x], 0, 1",
        "red.release.gpu.global.add.u32 [x], 1",
        "fence.sc.gpu",
        "fence.cta",
        "membar.gl",
        "fence.proxy.async.shared::cta",
        "fence.proxy.alias",
        "barrier.cta.sync.aligned 0, 64",
        "bar.sync 1",
        "mul.lo.s32 r0, r1, 3",
        "mbarrier.init.shared::cta.b64 [mb], 1",
        "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [mb@1], 16",
        "mbarrier.complete_tx.relaxed.cta.shared.b64 [mb], 16",
        "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 _, [mb], 0",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [s], "
        "[g], 16, [mb], 3",
        "cp.async.bulk.global.shared::cta.bulk_group [g], [s], 16",
        "cp.async.bulk.commit_group",
        "cp.async.bulk.wait_group.read 0",
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [s], 32",
        "tcgen05.dealloc.cta_group::2.sync.aligned.b32 r0, 32",
        "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned",
        "tcgen05.mma.cta_group::1.kind::f16 [d], [a], [b], I0, 1",
        "tcgen05.cp.cta_group::1.64x128b.warpx2::01_23.b8x16.b6x16_p32 [d], [s]",
        "tcgen05.shift.cta_group::2.down [d]",
        "tcgen05.ld.sync.aligned.16x256b.x2.pack::16b.b32 {r0, r1, r2, r3}, [d]",
        "tcgen05.st.sync.aligned.32x32b.x1.b32 [d], r0",
        "tcgen05.wait::st.sync.aligned",
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 "
        "[mb], 3",
        "tcgen05.fence::after_thread_sync",
        "tcgen05.ld.red.sync.aligned.32x32b.x2.max.u32 {r0, r1}, rv, [d]",
        // PTX ISA 9.4 forms
        "tcgen05.alloc.exclusive.cta_group::1.sync.aligned.shared::cta.b32 [s], 96",
        "tcgen05.dealloc.exclusive.cta_group::2.sync.aligned.b32 r0, 96",
        "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster::32b."
        "b64 [mb], 3",
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster::16b."
        "b64 [mb], 3",
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one.sync_restrict::shared::read::mma::a.b64 "
        "[mb]",
        "mbarrier.arrive.release.cluster.shared::cluster.multicast::cluster::32b.b64 _, [mb], 3",
        "mbarrier.arrive.expect_tx.relaxed.cluster.shared::cluster.multicast::cluster::32b.b64 _, "
        "[mb], 16, 3",
        "mbarrier.arrive_drop.shared::cluster.multicast::cluster::32b.b64 _, [mb], 2, 3",
        "mbarrier.expect_tx.relaxed.cta.shared::cluster.multicast::cluster::32b.b64 [mb], 512, 3",
        "mbarrier.complete_tx.multicast::cluster::32b.b64 [mb], 16, 3",
        "mbarrier.try_wait.parity.phase_type::conditional.acquire.cluster.shared::cta.b64 _, [mb], "
        "0",
        "mbarrier.test_wait.parity.phase_type::primary.relaxed.cta.b64 p, [mb], 1",
        "wgmma.fence.sync.aligned",
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {d0, d1}, [a], [b], 1, 1, 1, 0, 0",
        "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {d0}, {a0, a1}, [b], p, 1, -1, 1",
        "wgmma.mma_async.sync.aligned.m64n8k32.satfinite.s32.s8.u8 {d0}, [a], [b], 0",
        "wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {d0}, [a], [b], 1",
        "wgmma.commit_group.sync.aligned",
        "wgmma.wait_group.sync.aligned 1",
        "nanosleep.u32 20",
        "nanosleep.u32 r0",
        "ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {r0}, [x]",
        "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {r0, r1}, [x]",
        "ldmatrix.sync.aligned.m8n8.x4.b16 {r0, r1, r2, r3}, [x]",
        "ldmatrix.sync.aligned.m16n16.x2.trans.shared::cta.b8 {r0, r1, r2, r3}, [x]",
        "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8x16.b6x16_p32 {r0, r1}, [x]",
        "ldmatrix.sync.aligned.m8n16.x1.shared::cta.b8x16.b4x16_p64 {r0}, [x]",
        "ldmatrix.sync.aligned.m8n16.x1.shared::cta.s8.s4 {r0}, [x]",
        "stmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 [x], {r0, r1}",
        "stmatrix.sync.aligned.m16n8.x4.trans.b8 [x], {r0, r1, r2, r3}",
        "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster",
        "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster",
    };
    for (const char* text : canonical) {
        INFO(text);
        CHECK(roundTrip(text) == text);
    }
}

TEST_CASE("print puts qualifiers in PTX order whatever order they were written in", "[ptx]") {
    CHECK(roundTrip("ld.global.u32.acquire.gpu r0, [x]") == "ld.acquire.gpu.global.u32 r0, [x]");
    CHECK(roundTrip("tcgen05.ld.32x32b.b32.x2.sync.aligned {r0, r1}, [d]") ==
          "tcgen05.ld.sync.aligned.32x32b.x2.b32 {r0, r1}, [d]");
    // CUTLASS writes .satfinite after the types; the ISA's syntax before them
    CHECK(roundTrip("wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8.satfinite {d}, [a], [b], 1") ==
          "wgmma.mma_async.sync.aligned.m64n8k32.satfinite.s32.s8.s8 {d}, [a], [b], 1");
}

TEST_CASE("wgmma.mma_async: shapes, types and forms the ISA does not have are refused", "[ptx]") {
    for (const char* bad : {
             "wgmma.mma_async.sync.aligned.m64n8k8.f32.f16.f16 {d}, [a], [b], 1, 1, 1, 0, 0",
             "wgmma.mma_async.sync.aligned.m64n8k16.s32.f16.f16 {d}, [a], [b], 1, 1, 1, 0, 0",
             "wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16 {d}, [a], [b], 1, 1, 1, 0, 0",
             "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.bf16 {d}, [a], [b], 1, 1, 1, 0, 0",
             "wgmma.mma_async.m64n8k16.f32.f16.f16 {d}, [a], [b], 1, 1, 1, 0, 0",
             "wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.f16.f16 {d}, [a], [b], 1, 1, 1, 0, 0",
             "wgmma.fence",
         }) {
        INFO(bad);
        CHECK_THROWS(ptx::decode(parseInsn(bad)));
    }
    CHECK(roundTrip("ldmatrix.sync.aligned.shared.trans.x2.m8n8.b16 {r0, r1}, [x]") ==
          "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {r0, r1}, [x]");
}

// PTX ISA 9.4, 9.7.18.10.10.1-4 (#tcgen05-mma-instructions-mma, -mma-sp, -mma-ws, -mma-ws-sp):
// "Qualifier .block_scale specifies that the matrices A and B are scaled with scale_A and
// scale_B matrices ... The address operand scale-A-tmem and scale-B-tmem specify the base
// address the matrices scale_A and scale_B respectively in the Tensor Memory".
TEST_CASE("tcgen05.mma .sp, .ws, .block_scale and .decompress::lut::b round-trip", "[ptx]") {
    for (const char* text : {
             "tcgen05.mma.sp.cta_group::1.kind::f16 [d], [a], [b], [sm], I0, 1",
             "tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale [d], [a], [b], I0, [sa], [sb], 1",
             "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16 [d], [ta], [b], I0, "
             "[sa], [sb], 1",
             "tcgen05.mma.sp.cta_group::1.kind::mxf4.block_scale.scale_vec::2X [d], [a], [b], "
             "[sm], I0, [sa], [sb], 1",
             "tcgen05.mma.cta_group::1.kind::f8f6f4.decompress::lut::b [d], [a], [b], [lut], I0, 1",
             "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.decompress::lut::b.block32 [d], "
             "[a], [b], [lut], I0, [sa], [sb], 1",
             "tcgen05.mma.ws.cta_group::1.kind::i8 [d], [a], [b], I0, 1",
             "tcgen05.mma.ws.sp.cta_group::1.kind::tf32 [d], [ta], [b], [sm], I0, 0",
             "tcgen05.mma.cta_group::1.kind::f16.collector::a::fill [d], [a], [b], I0, 1",
             "tcgen05.mma.cta_group::1.kind::ti16.ashift.collector::a::lastuse.collector::b::use "
             "[d], [ta], [b], I0, 1",
             "tcgen05.mma.ws.cta_group::1.kind::tf32.collector::b3::discard [d], [ta], [b], I0, 1, "
             "zm",
         }) {
        INFO(text);
        CHECK(roundTrip(text) == text);
    }
    // written in another order, printed in the text's
    CHECK(roundTrip("tcgen05.mma.sp.ws.cta_group::1.kind::f16 [d], [a], [b], [sm], I0, 1") ==
          "tcgen05.mma.ws.sp.cta_group::1.kind::f16 [d], [a], [b], [sm], I0, 1");
    auto m = ptx::decode(parseInsn("tcgen05.mma.sp.cta_group::1.kind::mxf8f6f4.block_scale "
                                   "[d], [a], [b], [sm], I0, [sa], [sb], 1"));
    CHECK(m.as<ptx::Tcgen05Mma>()->operandCount() == 8);
    // collector buffers: the buffer and the operation as written; unwritten, none (the
    // lowering applies the text's default, discard)
    auto c = ptx::decode(parseInsn("tcgen05.mma.cta_group::1.kind::ti16.collector::b::lastuse "
                                   "[d], [a], [b], I0, 1"));
    const auto* mc = c.as<ptx::Tcgen05Mma>();
    CHECK_FALSE(mc->collectorA.has_value());
    REQUIRE(mc->collectorB.has_value());
    CHECK(mc->collectorB->buffer == "b");
    CHECK(mc->collectorB->op == ptx::CollectorOp::LastUse);
    // .ws's zero-column-mask-desc is one more operand, after enable-input-d
    auto ws = ptx::decode(parseInsn("tcgen05.mma.ws.cta_group::1.kind::i8.collector::b2::use "
                                    "[d], [a], [b], I0, 1, zm"));
    CHECK(ws.as<ptx::Tcgen05Mma>()->zeroColumnMask);
    CHECK(ws.as<ptx::Tcgen05Mma>()->operandCount() == 6);
    CHECK(ws.as<ptx::Tcgen05Mma>()->enableIndex() == 4);
}

TEST_CASE("tcgen05.mma forms the text does not have are refused", "[ptx]") {
    const std::pair<const char*, const char*> bad[] = {
        {"tcgen05.mma.cta_group::1.kind::mxf4 [d], [a], [b], I0, 1", "take .block_scale"},
        {"tcgen05.mma.cta_group::1.kind::f16.block_scale [d], [a], [b], I0, [sa], [sb], 1",
         "take .block_scale"},
        {"tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale [d], [a], [b], I0, [sa], [sb], 1",
         "must be explicitly"},
        {"tcgen05.mma.cta_group::1.kind::f16.block32 [d], [a], [b], I0, 1", "needs .block_scale"},
        {"tcgen05.mma.cta_group::1.kind::i8.decompress::lut::b [d], [a], [b], [l], I0, 1",
         ".decompress::lut::b takes"},
        {"tcgen05.mma.sp.cta_group::1.kind::f8f6f4.decompress::lut::b [d], [a], [b], [l], I0, 1",
         ".decompress::lut::b takes"},
        {"tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.decompress::lut::b.scale_vec::1X "
         "[d], [a], [b], [l], I0, [sa], [sb], 1",
         ".decompress::lut::b takes"},
        {"tcgen05.mma.ws.cta_group::2.kind::f16 [d], [a], [b], I0, 1", "takes .cta_group::1"},
        {"tcgen05.mma.cta_group::1.kind::f16.ashift.collector::a::fill [d], [ta], [b], I0, 1",
         "It is illegal"},
        {"tcgen05.mma.cta_group::1.kind::f16.ashift.collector::a::use [d], [ta], [b], I0, 1",
         "It is illegal"},
        {"tcgen05.mma.cta_group::1.kind::f16.collector::a::keep [d], [a], [b], I0, 1",
         "no collector operation"},
        {"tcgen05.mma.cta_group::1.kind::i8.collector::b::fill [d], [a], [b], I0, 1",
         "takes no .collector::b"},
        {"tcgen05.mma.ws.cta_group::1.kind::f16.collector::a::fill [d], [a], [b], I0, 1",
         "no .collector::a"},
        {"tcgen05.mma.ws.cta_group::1.kind::f16.ashift [d], [ta], [b], I0, 1", "no .ashift"},
        {"tcgen05.mma.ws.cta_group::1.kind::f16.collector::b::fill [d], [a], [b], I0, 1",
         "collector::b::fill"},
        {"tcgen05.mma.cta_group::1.kind::f16.collector::b0::fill [d], [a], [b], I0, 1",
         "collector::b0::fill"},
    };
    for (const auto& [text, message] : bad) {
        INFO(text);
        try {
            ptx::decode(parseInsn(text));
            FAIL("decoded");
        } catch (const InputError& e) {
            CHECK_THAT(e.what(), Catch::Contains(message));
        }
    }
}

TEST_CASE("the tcgen05.ld/st table gives the registers per thread", "[ptx]") {
    using ptx::LdStShape;
    CHECK(ptx::ldStShape(LdStShape::Lanes32Bits32).registersPerRepeat == 1);
    CHECK(ptx::ldStShape(LdStShape::Lanes16Bits64).registersPerRepeat == 1);
    CHECK(ptx::ldStShape(LdStShape::Lanes16Bits128).registersPerRepeat == 2);
    CHECK(ptx::ldStShape(LdStShape::Lanes16Bits256).registersPerRepeat == 4);
    CHECK(ptx::ldStShape(LdStShape::Lanes16Bits32Twice).registersPerRepeat == 1); // Table 49
    CHECK(ptx::ldStShape(LdStShape::Lanes16Bits32Twice).halfSplit);
    CHECK(!ptx::ldStShape(LdStShape::Lanes16Bits64).halfSplit);
    CHECK(ptx::LdStFormat{LdStShape::Lanes16Bits256, 8, ptx::Pack::None}.registers() == 32);
    CHECK(ptx::LdStFormat{LdStShape::Lanes16Bits128, 4, ptx::Pack::Unpack16b}.registers() == 4);
    CHECK(ptx::LdStFormat{LdStShape::Lanes32Bits32, 1, ptx::Pack::Pack16b}.registers() == 1);
    CHECK(ptx::kLdStRepeats.back() == 128);
    auto ld = ptx::decode(parseInsn("tcgen05.ld.sync.aligned.16x128b.x4.b32 {r0}, [d]"));
    CHECK(ld.as<ptx::Tcgen05Ld>()->format.registers() == 8);
}

TEST_CASE("the tcgen05.cp and scope tables name every qualifier once", "[ptx]") {
    CHECK(ptx::cpShape(ptx::CpShape::Rows32Bits128).needs == ptx::CpWarps::X4);
    CHECK(ptx::cpShape(ptx::CpShape::Rows4Bits256).name == "4x256b");
    CHECK(ptx::nameOf(ptx::kCpWarps, ptx::CpWarps::X2_02_13) == "warpx2::02_13");
    CHECK(ptx::valueOf(ptx::kScopes, "cluster") == ptx::Scope::Cluster);
    CHECK(ptx::valueOf(ptx::kAtomOps, "exch") == ptx::AtomOp::Exch);
    CHECK(ptx::nameOf(ptx::kMemorySems, ptx::Sem::AcqRel) == "acq_rel");
}

TEST_CASE("a leftover qualifier is reported at its own column", "[ptx]") {
    testing::requireInputError([] { ptx::decode(parseInsn("ld.global.bogus.u32 r0, [x]")); },
                               "ld.global.bogus.u32", "t.litmus", 4, 12,
                               "unknown or misplaced qualifier '.bogus' in 'ld.global.bogus.u32'");
    testing::requireInputError(
        [] {
            ptx::decode(parseInsn("tcgen05.ld.sync.aligned.32x32b.x3.b32 "
                                  "{r0}, [d]"));
        },
        "x3", "t.litmus", 4, 2, "missing or bad repeat count");
    testing::requireInputError([] { ptx::decode(parseInsn("frobnicate r0")); }, "frobnicate",
                               "t.litmus", 4, 2, "unknown instruction 'frobnicate'");
}

TEST_CASE("nanosleep is nanosleep.u32, a control instruction", "[ptx]") {
    CHECK(ptx::decode(parseInsn("nanosleep.u32 r0")).family() == ptx::Family::Control);
    testing::requireInputError([] { ptx::decode(parseInsn("nanosleep 20")); }, "nanosleep 20",
                               "t.litmus", 4, 2, "nanosleep needs .u32");
    testing::requireInputError([] { ptx::decode(parseInsn("nanosleep.b32 20")); },
                               "nanosleep.b32 20", "t.litmus", 4, 2, "nanosleep needs .u32");
    testing::requireInputError([] { ptx::decode(parseInsn("nanosleep.u32.u32 20")); },
                               "nanosleep.u32.u32 20", "t.litmus", 4, 2, "nanosleep needs .u32");
    testing::requireInputError([] { ptx::decode(parseInsn("nanosleep.u32.sync 20")); },
                               "nanosleep.u32.sync 20", "t.litmus", 4, 16,
                               "unknown or misplaced qualifier '.sync'");
}

TEST_CASE("effective ordering: defaults and .volatile", "[ptx]") {
    auto o = ptx::effectiveOrdering(ptx::Sem::Volatile, ptx::Scope::None, ir::Sem::Weak);
    CHECK(o.sem == ir::Sem::Relaxed);
    CHECK(o.scope == ptx::Scope::Sys);
    auto a = ptx::effectiveOrdering(ptx::Sem::None, ptx::Scope::None, ir::Sem::Relaxed);
    CHECK(a.scope == ptx::Scope::Gpu);
}

TEST_CASE("the cta_group hook runs before the later qualifiers are checked", "[ptx]") {
    int seen = 0;
    auto inst = parseInsn("tcgen05.mma.cta_group::2.bogus [d], [a], [b], I0, 1");
    CHECK_THROWS_AS(ptx::decode(inst, [&](int g) { seen = g; }), InputError);
    CHECK(seen == 2);
}

TEST_CASE("atom/red .inc/.dec decode on .u32 only, .add.f32 and 64-bit integers decode, .f64 not",
          "[ptx]") {
    CHECK(roundTrip("atom.acquire.sys.shared::cta.inc.u32 r0, [x], 3") ==
          "atom.acquire.sys.shared::cta.inc.u32 r0, [x], 3");
    CHECK(roundTrip("red.global.dec.u32 [x], 3") == "red.global.dec.u32 [x], 3");
    CHECK(
        roundTrip("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.dec.u32 "
                  "[x], 3, [mb]") ==
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.dec.u32 [x], 3, "
        "[mb]");
    CHECK(ptx::decode(parseInsn("atom.global.inc.u32 r0, [x], 3")).as<ptx::Atom>()->op ==
          ptx::AtomOp::Inc);
    // ".inc and .dec are only supported for .u32 type" (9.7.15.5); no binary64 arithmetic
    for (const char* bad :
         {"atom.global.inc.s32 r0, [x], 3", "red.global.dec.b32 [x], 3",
          "atom.global.inc r0, [x], 3", "sured.inc.u32 [x], 1", "red.global.add.f64 [x], 1"}) {
        INFO(bad);
        CHECK_THROWS_AS(ptx::decode(parseInsn(bad)), InputError);
    }
    // computed with their PTX semantics (IEEE rounding and the flush of subnormals on global
    // memory: litmus/ptx/atomics/atom.add.f32-rounding.litmus; 64-bit words)
    for (const char* good : {"atom.global.add.f32 r0, [x], 1", "atom.global.add.u64 r0, [x], 1",
                             "red.global.max.s64 [x], 1", "atom.global.exch.b64 r0, [x], 1"}) {
        INFO(good);
        CHECK_NOTHROW(ptx::decode(parseInsn(good)));
    }
}

TEST_CASE("st.async .v2/.v4, cp.async src-size and ignore-src, .ignore_oob", "[ptx]") {
    auto st = ptx::decode(parseInsn(
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.u32 [x], {a, b, c, d}, [mb]"));
    CHECK(st.as<ptx::St>()->vec == 4);
    CHECK(ptx::print(st) ==
          "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.u32 [x], {a, b, c, d}, [mb]");
    // ".v4 qualifier is supported with .b32, .s32, .u32 and .f32 types"; the release form's
    // syntax has no .vec
    testing::requireInputError(
        [] {
            ptx::decode(parseInsn(
                "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b64 [x], {a, b, c, d}, "
                "[mb]"));
        },
        "st.async v4.b64", "t.litmus", 4, 2, ".v4 qualifier is supported with .b32");
    CHECK_THROWS_AS(ptx::decode(parseInsn("st.async.release.gpu.global.v2.u32 [x], {a, b}")),
                    InputError);

    auto size = ptx::decode(parseInsn("cp.async.ca.shared.global [s], [g], 4, 2"));
    CHECK(size.as<ptx::CpAsync>()->srcSize == 2);
    CHECK_FALSE(size.as<ptx::CpAsync>()->ignoreSrc);
    auto ignore =
        ptx::decode(parseInsn("cp.async.cg.shared.global.L2::cache_hint [s], [g], 16, p, pol"));
    CHECK(ignore.as<ptx::CpAsync>()->ignoreSrc);
    CHECK_FALSE(ignore.as<ptx::CpAsync>()->srcSize);
    CHECK_FALSE(ptx::decode(parseInsn("cp.async.cg.shared.global.L2::cache_hint [s], [g], 16, pol"))
                    .as<ptx::CpAsync>()
                    ->ignoreSrc); // the policy, not ignore-src
    CHECK(ptx::decode(parseInsn("cp.async.cg.shared.global [s], [g], 16, 0"))
              .as<ptx::CpAsync>()
              ->srcSize == 0);
    // "must be less than cp-size"; a part of a 16-byte copy decodes (which cells can keep it is
    // the lowering's: arrays of 4- or 8-byte elements)
    testing::requireInputError(
        [] { ptx::decode(parseInsn("cp.async.ca.shared.global [s], [g], 4, 4")); }, "src-size 4",
        "t.litmus", 4, 41, "must be less than cp-size");
    CHECK(ptx::decode(parseInsn("cp.async.cg.shared.global [s], [g], 16, 8"))
              .as<ptx::CpAsync>()
              ->srcSize == 8);
    CHECK_THROWS_AS(ptx::decode(parseInsn("cp.async.ca.shared.global [s], [g], 4, 2, p")),
                    InputError);

    const char* oob = "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.ignore_oob "
                      "[s], [g], 16, 0, 0, [mb]";
    CHECK(roundTrip(oob) == oob);
    CHECK(ptx::decode(parseInsn(oob)).as<ptx::BulkCopy>()->ignoreOob);
    // ignored bytes decode ("The only valid values for ignoreBytesLeft and ignoreBytesRight are
    // [0..15]"); what they leave is the lowering's
    CHECK_NOTHROW(ptx::decode(parseInsn("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::"
                                        "bytes.ignore_oob [s], [g], 16, 0, 3, [mb]")));
    CHECK_THROWS_AS(ptx::decode(parseInsn("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::"
                                          "bytes.ignore_oob [s], [g], 16, 0, 16, [mb]")),
                    InputError);
    CHECK_THROWS_AS(
        ptx::decode(parseInsn("cp.async.bulk.shared::cluster.global.mbarrier::"
                              "complete_tx::bytes.ignore_oob [s], [g], 16, 0, 0, [mb]")),
        InputError);
}
