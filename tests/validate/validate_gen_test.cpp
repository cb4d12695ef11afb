// gen-cuda: placement, the PTX each instruction becomes, value encodings, refusals, mutations.
#include "hw/CudaGen.hpp"
#include "hw/Emit.hpp"
#include "litmus/Parser.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc;

namespace {

validate::Generated gen(const std::string& text, bool compileOnly = false) {
    return validate::generateCuda(litmus::parseLitmus(text, "t.litmus"), {"t.litmus", "", ""},
                                  compileOnly);
}

bool has(const std::string& code, const std::string& part) {
    return code.find(part) != std::string::npos;
}

std::string refusal(const std::string& text) {
    try {
        gen(text);
    } catch (const validate::Refused& r) {
        return r.why;
    }
    return "";
}

const char* const kMp = R"(PTX MP
{ x = 0; flag = 0; P1:r0 = 0; P1:r1 = 0; }
 P0@cta 0,gpu 0                    | P1@cta 1,gpu 0 ;
 st.relaxed.gpu.global.u32 [x], 1  | ld.acquire.gpu.global.u32 r0, [flag] ;
 st.release.gpu.global.u32 [flag], 1 | ld.global.u32 r1, [x] ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
)";

} // namespace

TEST_CASE("generic accesses keep their semantics, scope and space", "[validate]") {
    auto g = gen(kMp);
    CHECK(g.arch == validate::Arch::Sm90a);
    CHECK(has(g.code, "st.relaxed.gpu.global.b32 [%0], %1;"));
    CHECK(has(g.code, "st.release.gpu.global.b32 [%0], %1;"));
    CHECK(has(g.code, "ld.acquire.gpu.global.b32 %0, [%1];"));
    CHECK(has(g.code, "ld.global.b32 %0, [%1];"));
    // Two CTAs, one litmus thread each: 8 rows of warps, 32 instances per warp.
    CHECK(has(g.code, "kWarps = 8, kRows = 8, kLanes = 32"));
    CHECK(has(g.code, "kLitmusClusters = 2"));
    CHECK(has(g.code, "return ((v[0] == static_cast<int>(0x00000001u)) && "
                      "(v[1] == static_cast<int>(0x00000000u)));"));
    CHECK(has(g.code, "const char* const kNames[] = {\"P1:r0\", \"P1:r1\", nullptr};"));
}

TEST_CASE("bar.sync counts the warps of every row and gets a harness-free id", "[validate]") {
    auto g = gen(R"(PTX B
{ x @ shared 0 = 0; P1:r0 = 0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.shared::cta.u32 [x], 1 | bar.sync 0 ;
 bar.sync 0 | ld.shared::cta.u32 r0, [x] ;
exists (P1:r0 == 0)
)");
    // 2 litmus threads x 4 rows of warps x 32 threads; id 0 is the harness's own barrier
    CHECK(has(g.code, "barrier.sync 1, 256;"));
}

TEST_CASE("clusters, remote mbarriers and bulk copies", "[validate]") {
    auto g = gen(R"(PTX C
{ s @ shared 0,1 = 0; g = 5; mb @ mbarrier 0,1, count 1; P1:r0 = 0; }
 P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;
 mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 _, [mb], 16 | mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 _, [mb], 0 ;
 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s@1], [g], 16, [mb@1] | ld.shared::cta.u32 r0, [s] ;
 mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [mb@1] | ;
exists (P1:r0 == 0)
)");
    CHECK(has(g.code, "__cluster_dims__(2, 1, 1)"));
    CHECK(has(g.code, "litmus::mapShared("));
    CHECK(has(g.code, "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"));
    CHECK(has(g.code, "mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];"));
    // the blocking wait retries inside one asm statement until the deadline
    CHECK(has(g.code, "LAB_WAIT: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P, [%1], "
                      "%2; @P bra DONE; mov.u64 t, %%globaltimer; setp.gt.u64 T, t, %3; @!T bra "
                      "LAB_WAIT;"));
    CHECK(has(g.code, "\"l\"(deadline) : \"memory\");"));
}

TEST_CASE("tcgen05 tests are sm_100a, one instance per team, f16 operands and f32 sums",
          "[validate]") {
    auto g = gen(R"(PTX T
{ a @ shared 0 = 2; b @ shared 0 = 3; d @ tmem 0 = 0; mb @ mbarrier 0, count 1; P1:r0 = 0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 tcgen05.mma.cta_group::1.kind::f16 [d], [a], [b], I0, 0 | mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 _, [mb], 0 ;
 tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mb] | tcgen05.fence::after_thread_sync ;
 | tcgen05.ld.sync.aligned.32x32b.x1.b32 {r0}, [d] ;
 | tcgen05.wait::ld.sync.aligned ;
exists (P1:r0 == 0)
)");
    CHECK(g.arch == validate::Arch::Sm100a);
    CHECK(has(g.code, "kRows = 1, kLanes = 1"));
    CHECK(has(g.code, "w == 0 ? 0x00004000u : 0u")); // a = 2 as f16
    CHECK(has(g.code, "w == 0 ? 0x00004200u : 0u")); // b = 3 as f16
    // f32 D, f16 A/B, N = 16 (>> 3 at bit 17), M = 128 (>> 4 at bit 24)
    CHECK(has(g.code, "\"r\"(0x08040010u)"));
    CHECK(has(g.code, "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32"));
    CHECK(has(g.code, "litmus::decodeF32(__shfl_sync(0xffffffffu, "));
    CHECK(has(g.code, "tcgen05.dealloc.cta_group::1.sync.aligned.b32"));
}

TEST_CASE("constants take the device encoding of their location", "[validate]") {
    SourceLoc at{"t.litmus", 1, 1};
    CHECK(validate::encodeConstant(2, validate::Encoding::F16, at) == 0x4000u);
    CHECK(validate::encodeConstant(-3, validate::Encoding::F16, at) == 0xc200u);
    CHECK(validate::encodeConstant(2048, validate::Encoding::F16, at) == 0x6800u);
    CHECK(validate::encodeConstant(6, validate::Encoding::F32, at) == 0x40c00000u);
    CHECK(validate::encodeConstant(7, validate::Encoding::Int, at) == 7u);
    CHECK_THROWS_AS(validate::encodeConstant(4097, validate::Encoding::F16, at), validate::Refused);
}

TEST_CASE("what hardware cannot mirror is refused with a reason", "[validate]") {
    CHECK_THAT(refusal(R"(PTX A
{ x = 0; s @ surface aliases x; P0:r0 = 0; }
 P0@cta 0,gpu 0 ;
 sust.weak s, 1 ;
 ld.weak r0, x ;
exists (P0:r0 == 0)
)"),
               Catch::Contains("aliases 'x' through the surface proxy"));
    CHECK_THAT(refusal(R"(PTX M
{ x = 0; y = 0; m @ multimem x, y; }
 P0@cta 0,gpu 0 ;
 multimem.st.relaxed.sys.global.u32 [m], 1 ;
exists (x == 1)
)"),
               Catch::Contains("'m' is a multimem address, a location on each of several GPUs"));
    const char* const multiRow = R"(PTX R
{ a @ shared 0 = 2; b @ shared 0 = 3; d @ tmem 0, rows 2 = {1, 0}; }
 P0@cta 0,gpu 0 ;
 tcgen05.mma.cta_group::1.kind::f16 [d], [a], [b], I0, 0 ;
exists (d[1] == 1)
)";
    CHECK_THAT(refusal(multiRow), Catch::Contains("only single-row accumulators map"));
    // ... but ptxas still gets a compile-only kernel, which the runner will not run
    auto g = gen(multiRow, true);
    CHECK_THAT(g.notFaithful, Catch::Contains("single-row accumulators"));
    CHECK(has(g.code, "only single-row accumulators map\","));
    // Shared memory of a CTA outside the thread's cluster is not reachable at all: the
    // lowering rejects it before generation.
    CHECK_THROWS_WITH(refusal(R"(PTX X
{ x @ shared 0 = 0; P1:r0 = 0; }
 P0@cta 1,gpu 0 | P1@cta 0,gpu 0 ;
 st.shared::cluster.u32 [x@0], 1 | ld.shared::cta.u32 r0, [x] ;
exists (P1:r0 == 0)
)"),
                      Catch::Contains("not in this thread's cluster"));
}

TEST_CASE("the emitted PTX is the printer's text of the instruction as the device runs it",
          "[validate]") {
    auto g = gen(R"(PTX F
{ x = 0; y @ shared 0 = 0; P1:r1 = 0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 fence.sc.gpu | atom.relaxed.gpu.global.sub.u32 r1, [x], 1 ;
 fence.acq_rel.cta | red.global.max.s32 [x], 2 ;
 st.relaxed.cta.shared.u32 [y], 1 | ;
exists (P1:r1 == 0)
)");
    CHECK(has(g.code, "fence.sc.gpu;"));
    CHECK(has(g.code, "fence.acq_rel.cta;"));
    // .shared is written .shared::cta; accesses move 32 bits
    CHECK(has(g.code, "st.relaxed.cta.shared::cta.b32 [%0], %1;"));
    // PTX has no atom.sub: an add of the negated value
    CHECK(has(g.code, "atom.relaxed.gpu.global.add.u32 %0, [%1], %2;"));
    CHECK(has(g.code, "(0u - "));
    CHECK(has(g.code, "red.global.max.s32 [%0], %1;"));
    CHECK(has(g.code, "fence.proxy.async.shared::cta;"));
}

TEST_CASE("nanosleep is emitted as inline asm, an immediate in the text, a register as input",
          "[validate]") {
    auto g = gen(R"(PTX S
{ x = 0; P0:t = 40; P1:r0 = 0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.relaxed.gpu.global.u32 [x], 1 | nanosleep.u32 20 ;
 nanosleep.u32 t | ld.relaxed.gpu.global.u32 r0, [x] ;
exists (P1:r0 == 0)
)");
    CHECK(has(g.code, "asm volatile(\"nanosleep.u32 20;\" : : : \"memory\");"));
    CHECK(has(g.code, "asm volatile(\"nanosleep.u32 %0;\" : : \"r\"("));
}

TEST_CASE("wgmma tests are sm_90a, a litmus thread is a warpgroup, d is thread 0's D[0][0]",
          "[validate]") {
    auto g = gen(R"(PTX W
{ a @ shared 0 = 2; b @ shared 0 = 3; P0:d = 1; }
 P0@cta 0,gpu 0 ;
 st.shared::cta.b32 [a], 4 ;
 fence.proxy.async.shared::cta ;
 wgmma.fence.sync.aligned ;
 wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {d}, [a], [b], 1, 1, 1, 0, 0 ;
 wgmma.commit_group.sync.aligned ;
 wgmma.wait_group.sync.aligned 0 ;
 mov.b32 r0, d ;
exists (P0:r0 != 14 \/ P0:d != 14)
)");
    CHECK(g.arch == validate::Arch::Sm90a);
    // one instance per team; warps 4k..4k+3 are litmus thread k
    CHECK(has(g.code, "kWarps = 4, kRows = 1, kLanes = 1"));
    CHECK(has(g.code, "th = int(warp / 4);"));
    // the accumulator: f32 fragments, thread 0's first initialised to the litmus value
    CHECK(has(g.code, "float f_d[4] = {};"));
    CHECK(has(g.code, "f_d[0] = __uint_as_float(0x3f800000u);"));
    // f16 tiles with sm_90 descriptors (no version bit)
    CHECK(has(g.code, "litmus::wgmmaDescriptor(s_a, 128u, 256u)"));
    CHECK(has(g.code, "0x00004400u")); // st.shared of 4 stores f16 4.0
    CHECK(has(g.code, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, "
                      "%5, P, 1, 1, 0, 0;"));
    CHECK(has(g.code, "wgmma.wait_group.sync.aligned 0;"));
    CHECK(has(g.code, "asm volatile(\"\" : \"+f\"(f_d[3]) :: \"memory\");"));
    // thread 0 of the warpgroup does the per-thread work; the four warps meet before
    // each warpgroup-collective instruction
    CHECK(has(g.code, "if (threadIdx.x % 128u == 0) {"));
    CHECK(has(g.code, "asm volatile(\"bar.sync 15, 128;\" ::: \"memory\");"));
    CHECK(has(g.code, "static_cast<unsigned>(litmus::decodeF32(__float_as_uint(f_d[0])))"));
    // harness 4: one kernel per tensor-core backlog placement, picked per launch; the dummy
    // mmas go right before the test's mma (its first: index 0), their registers kept live
    // past the final wait
    CHECK(has(g.code, "template <unsigned kBacklog>"));
    CHECK(has(g.code, "litmus::wgmmaBacklog<litmus::backlogBefore(kBacklog, 0u)>(wgBacklog, "
                      "smem + kScratch);"));
    CHECK(has(g.code, "float wgBacklog[litmus::kBacklogFragments] = {};"));
    CHECK(has(g.code, "litmus::keepBacklog(p, wgBacklog);"));
    for (const char* k : {"1u", "2u", "3u"})
        CHECK(has(g.code, std::string("case ") + k + ": run<" + k +
                              "><<<grid, kWarps * 32, kSharedBytes, s>>>(p); break;"));
    CHECK(has(g.code, "default: run<0u><<<grid, kWarps * 32, kSharedBytes, s>>>(p); break;"));
    // each placement's kernel for its own occupancy; the thread's mma count (even and odd
    // placements need two)
    CHECK(has(g.code, "const void* const kBacklogKernels[] = {reinterpret_cast<const "
                      "void*>(run<0u>), reinterpret_cast<const void*>(run<1u>), "
                      "reinterpret_cast<const void*>(run<2u>), reinterpret_cast<const "
                      "void*>(run<3u>), };"));
    CHECK_FALSE(has(g.code, "kTensorMaps"));
    CHECK(has(g.code, "nullptr, kBacklogKernels, 1u,"));
    // a shared-A mma gets no wgmma.fence of the harness's own
    CHECK_FALSE(has(g.code, "wgmma.fence.sync.aligned; setp"));
}

TEST_CASE("wgmma with A in registers: thread 0's first A register holds the value", "[validate]") {
    const char* rs = R"(PTX RS
{ v @ shared 0 = 5; P0:p = 2; P0:o = 0; }
 P0@cta 0,gpu 0 ;
 wgmma.fence.sync.aligned ;
 wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {o}, {p}, [v], 0, 1, 1, 0 ;
 wgmma.commit_group.sync.aligned ;
 wgmma.wait_group.sync.aligned 0 ;
exists (P0:o != 10)
)";
    auto g = gen(rs);
    CHECK(has(g.code, "threadIdx.x % 128u == 0 ? litmus::encodeF16(static_cast<int>(r_p)) : 0u;"));
    CHECK(has(g.code, "{%8, %9, %10, %11}, %12, P, 1, 1, 0;"));
    // the harness's copy of A is a register write right before the mma: its own wgmma.fence
    // follows it in the mma's asm (ptxas would insert one, and serialize every wgmma)
    CHECK(has(g.code, "{ .reg .pred P; wgmma.fence.sync.aligned; setp.ne.b32 P, %13, 0; wgmma"));
    // a write of p after the fence would not race with the mma's read on hardware: refused
    std::string late = rs;
    late.replace(late.find(" wgmma.fence.sync.aligned ;"), 27,
                 " wgmma.fence.sync.aligned ;\n mov.b32 p, 3 ;");
    CHECK(has(refusal(late), "is written after the last wgmma.fence and read as A"));
}

TEST_CASE("wgmma mappings that would not mirror the model are refused", "[validate]") {
    CHECK(has(refusal(R"(PTX S
{ a @ shared 0 = 2; b @ shared 0 = 3; P0:d = 1; }
 P0@cta 0,gpu 0 ;
 wgmma.fence.sync.aligned ;
 wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {d}, [a], [b], 1, -1, 1, 0, 0 ;
 wgmma.commit_group.sync.aligned ;
 wgmma.wait_group.sync.aligned 0 ;
exists (P0:d != 7)
)"),
              "imm-scale-a/b other than 1"));
}

TEST_CASE("an array's elements get slots of their own, [a+k*r] picks one at run time",
          "[validate]") {
    auto g = gen(R"(PTX ARR
{ g[2] = {1, 2}, stride 16; a[2] @ shared 0 = {5, 6}; P0:k = 0; P0:r = 0; }
 P0@cta 0,gpu 0 ;
 LP: ;
 ld.global.u32 r, [g+16*k] ;
 st.shared::cta.u32 [a+4*k], r ;
 add.s32 k, k, 1 ;
 setp.lt.s32 more, k, 2 ;
 @more bra LP ;
exists (a[1] == 2 /\ P0:r == 2)
)");
    // each element is a location of its own, named as the model names it
    CHECK(has(g.code, "g_g_0_"));
    CHECK(has(g.code, "g_g_1_"));
    CHECK(has(g.code, "s_a_1_"));
    // the element the register picks, and stuck when it names none
    CHECK(has(g.code, "litmus::element(static_cast<long long>(static_cast<int>(r_k)) * 16LL + "
                      "0LL, 16, 2) == 1 ? g_g_1_ : (stuck = true, g_g_0_)"));
    CHECK(has(g.code, "litmus::element(static_cast<long long>(static_cast<int>(r_k)) * 4LL + "
                      "0LL, 4, 2) == 0 ? s_a_0_"));
    // the final condition reads element 1's cell
    CHECK(has(g.code, "\"a[1]\""));
}

TEST_CASE("a constant offset into an array names one element, a warp-wide thread indexes "
          "arrays by uniform registers only",
          "[validate]") {
    auto g = gen(R"(PTX ARR2
{ a[3] @ shared 0 = 0, stride 8; P0:r = 0; }
 P0@cta 0,gpu 0 ;
 st.shared::cta.u32 [a+16], 7 ;
 ld.shared::cta.u32 r, [a+16] ;
exists (P0:r == 7)
)");
    CHECK(has(g.code, "st.shared::cta.b32 [%0], %1;\" : : \"r\"(s_a_2_)"));
    // s is set from constants alone: every lane of the warp computes it and picks a[s]
    auto wide = gen(R"(PTX ARR3
{ a[2] @ shared 0 = 0; d @ tmem 0 = 0; P0:r = 0; }
 P0@cta 0,gpu 0 ;
 mov.b32 s, 1 ;
 st.shared::cta.u32 [a+4*s], 7 ;
 tcgen05.ld.sync.aligned.32x32b.x1.b32 {r}, [d] ;
 tcgen05.wait::ld.sync.aligned ;
exists (P0:r == 7)
)");
    CHECK(wide.arch == validate::Arch::Sm100a);
    CHECK(has(wide.code, "r_s)) * 4LL + 0LL, 4, 2) == 0 ? s_a_0_"));
    // an index loaded from memory is refused earlier: lowering needs every index's value
    // (litmus/README.md, Arrays); a register the lanes compute apart never reaches the check
}

TEST_CASE("non-bulk cp.async, its groups and its mbarrier arrive are written as the test has "
          "them",
          "[validate]") {
    auto g = gen(R"(PTX CPA
{ x = 1; s @ shared 0 = 0; mb @ mbarrier 0, count 1; P0:r0 = 0; P0:r1 = 0; }
 P0@cta 0,gpu 0 ;
 cp.async.ca.shared.global [s], [x], 4 ;
 cp.async.commit_group ;
 cp.async.wait_group 0 ;
 ld.shared::cta.u32 r0, [s] ;
 cp.async.cg.shared.global [s], [x], 16 ;
 cp.async.mbarrier.arrive.noinc.shared::cta.b64 [mb] ;
 cp.async.wait_all ;
exists (P0:r0 == 0)
)");
    CHECK(g.arch == validate::Arch::Sm90a);
    CHECK(has(g.code, "cp.async.ca.shared.global [%0], [%1], 4;"));
    CHECK(has(g.code, "cp.async.cg.shared.global [%0], [%1], 16;"));
    CHECK(has(g.code, "cp.async.commit_group;"));
    CHECK(has(g.code, "cp.async.wait_group 0;"));
    CHECK(has(g.code, "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];"));
    CHECK(has(g.code, "cp.async.wait_all;"));
    // a thread that leaves copies in flight waits for them before its state is read
    auto left = gen(R"(PTX CPA3
{ x = 1; s @ shared 0 = 0; P0:r0 = 0; }
 P0@cta 0,gpu 0 ;
 cp.async.ca.shared.global [s], [x], 4 ;
 ld.shared::cta.u32 r0, [s] ;
exists (s == 0)
)");
    CHECK(has(left.code, "cp.async.wait_all;"));
}

TEST_CASE("tensor copies: the runner's maps over the global array, coordinates from the slot",
          "[validate]") {
    const char* const load = R"(PTX TL
{ A @ global = 7, bytes 16384; a @ shared 0 = 0; full @ mbarrier 0, count 1; P1:r0 = 0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 mbarrier.arrive.expect_tx.shared::cta.b64 _, [full], 16384 | mbarrier.try_wait.parity.shared::cta.b64 _, [full], 0 ;
 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [a], [A, {0, 1}], [full] | ld.shared::cta.u32 r0, [a] ;
exists (P1:r0 == 0)
)";
    auto g = gen(load);
    CHECK(has(g.code, "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::"
                      "bytes [%0], [%1, {%2, %3}], [%4];"));
    // 16 KiB = 16 rows of 256 words; the row coordinate is the slot's offset in rows
    CHECK(has(g.code, "const unsigned kTensorMaps[] = {2u, 256u, 16u, };"));
    CHECK(has(g.code, "\"l\"(p.tensorMaps + 0ull), \"r\"(0u), \"r\"(static_cast<unsigned>(((g_A "
                      "- reinterpret_cast<unsigned long long>(p.gmem)) / 4ull) / 256ull))"));
    CHECK(has(g.code, "fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"));
    // 16 KiB slots per instance: two lanes per warp run one, four rows of warps (8 per CTA)
    CHECK(has(g.code, "kWarps = 8, kRows = 4, kLanes = 2"));
    CHECK(has(g.code, "kGlobalSlotWords = 4096"));
    CHECK(has(g.code, "if (cta >= 0 && lane < kLanes)"));

    auto st = gen(R"(PTX TS
{ x = 0; C @ global = 0, bytes 64; c @ shared 0 = 5; P0:r0 = 0; }
 P0@cta 0,gpu 0 ;
 cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [C, {0}], [c] ;
 cp.async.bulk.commit_group ;
 cp.async.bulk.wait_group 0 ;
 ld.global.u32 r0, [C] ;
exists (P0:r0 == 0)
)");
    // C is the second global location: the second map, a 1d box of 16 words; x has none
    CHECK(has(st.code, "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%1}], "
                       "[%2];"));
    CHECK(has(st.code, "\"l\"(p.tensorMaps + 128ull)"));
    CHECK(has(st.code, "const unsigned kTensorMaps[] = {0u, 0u, 0u, 1u, 16u, 1u, };"));
    // a tensor copy's shared side is 128-byte aligned
    CHECK(has(st.code, "* 128u"));
    // a tile no box can hold, and a map the test keeps in memory, are refused
    CHECK(refusal(R"(PTX TB
{ A @ global = 7, bytes 2048; a @ shared 0 = 0; full @ mbarrier 0, count 1; }
 P0@cta 0,gpu 0 ;
 mbarrier.arrive.expect_tx.shared::cta.b64 _, [full], 2048 ;
 cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [a], [A, {0}], [full] ;
exists (a == 0)
)") == "a 2048-byte tile is no box of a 1d tensor map (at most 256 words per row)");
}

TEST_CASE("the tensormap release fence names no map and runs as written", "[validate]") {
    // 9.7.15.4: fence.proxy.tensormap::generic.release.scope has no address operand
    validate::Generated g = gen(R"(PTX TR
{ x = 0; f = 0; P1:r0 = 0; P1:r1 = 0; }
 P0@cta 0,gpu 0                             | P1@cta 1,gpu 0 ;
 st.weak.global.u32 [x], 1                  | ld.acquire.gpu.u32 r0, [f] ;
 fence.proxy.tensormap::generic.release.gpu | ld.weak.global.u32 r1, [x] ;
 st.relaxed.gpu.global.u32 [f], 1           | ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
)");
    CHECK(has(g.code, "fence.proxy.tensormap::generic.release.gpu;"));
}

TEST_CASE("a tensor map in memory is the runner's one map of its tensor", "[validate]") {
    // the grouped GEMM's map update: every version of tm is the runner's map of A, the shared
    // copy tms starts as that map, and a replaced global_address is A's array again
    const std::string update = R"(PTX MU
{ tm = 1; tms @ shared 0 = 1; A @ global = 7, bytes 16, tensormap tm; a @ shared 0 = 0;
  ready @ mbarrier 0, count 1; full @ mbarrier 0, count 1; P2:r0 = 0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;
 tensormap.replace.tile.global_address.shared::cta.b1024.b64 [tms], 2 | mbarrier.try_wait.parity.shared::cta.b64 _, [ready], 0 | mbarrier.try_wait.parity.shared::cta.b64 _, [full], 0 ;
 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [tm], [tms], 128 | fence.proxy.tensormap::generic.acquire.gpu [tm], 128 | ld.shared::cta.u32 r0, [a] ;
 mbarrier.arrive.release.cta.shared::cta.b64 _, [ready] | mbarrier.arrive.expect_tx.shared::cta.b64 _, [full], 16 | ;
 | cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::complete_tx::bytes [a], [A, {0}], [full] | ;
exists (P2:r0 != 7)
)";
    validate::Generated g = gen(update);
    // A is the second global location: its map is the second of the runner's maps
    CHECK(has(g.code, "const unsigned long long map_tm = p.tensorMaps + 128ull;"));
    CHECK(has(g.code, "litmus::sharedStore(smem + 0u + litmus::sharedSlot(p, i, 1u, kPerCta) * "
                      "128u + 4u * w, reinterpret_cast<const unsigned*>(p.tensorMaps + "
                      "128ull)[w]);"));
    CHECK(has(g.code, "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;\" : "
                      ": \"r\"(s_tms), \"l\"(reinterpret_cast<unsigned long long>(p.gmem))"));
    CHECK(has(g.code, "__syncwarp();\n"));
    CHECK(has(g.code, "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu."
                      "sync.aligned [%0], [%1], 128;\" : : \"l\"(map_tm), \"r\"(s_tms)"));
    CHECK(has(g.code, "fence.proxy.tensormap::generic.acquire.gpu [%0], 128;\" : : "
                      "\"l\"(map_tm)"));
    // what would read or write a map's bytes as a version number is refused
    auto with = [&update](const std::string& from, const std::string& to) {
        std::string s = update;
        s.replace(s.find(from), from.size(), to);
        return s;
    };
    CHECK(has(refusal(with("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release."
                           "gpu.sync.aligned [tm], [tms], 128",
                           "st.global.u32 [tm], 2")),
              "'st.global.u32' on the tensor map 'tm'"));
    CHECK(has(refusal(with("exists (P2:r0 != 7)", "exists (tm == 1)")),
              "the final value of the tensor map 'tm' is a version"));
    CHECK(has(refusal(with("replace.tile.global_address.shared::cta.b1024.b64 [tms], 2",
                           "replace.tile.fill_mode.shared::cta.b1024.b32 [tms], 1")),
              "only .global_address is mapped"));
    CHECK(has(refusal(R"(PTX TA
{ x = 0; P0:r0 = 0; }
 P0@cta 0,gpu 0 ;
 fence.proxy.tensormap::generic.acquire.gpu [x], 128 ;
 ld.global.u32 r0, [x] ;
exists (P0:r0 == 1)
)"),
              "'x' holds no tensor's map"));
}

TEST_CASE("a warp-wide thread may loop on uniform registers, a branch on a loaded value is "
          "refused",
          "[validate]") {
    // one wgmma consumer (a warpgroup) counting its rounds: k, ph and more are set from
    // constants and each other, so every lane computes them and takes the same branches
    const std::string loop = R"(PTX WL
{ g = 1; a0 @ shared 0 = 0; b @ shared 0 = 1; full0 @ mbarrier 0, count 1; P1:d = 0; P1:k = 0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 mbarrier.arrive.expect_tx.shared::cta.b64 _, [full0], 16 | mov.b32 k, 0 ;
 cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [a0], [g], 16, [full0] | mbarrier.try_wait.parity.shared::cta.b64 _, [full0], 0 ;
 | LC: ;
 | wgmma.fence.sync.aligned ;
 | wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {d}, [a0], [b], 1, 1, 1, 0, 0 ;
 | wgmma.commit_group.sync.aligned ;
 | wgmma.wait_group.sync.aligned 0 ;
 | add.s32 k, k, 1 ;
 | setp.lt.s32 more, k, 2 ;
 | @more bra LC ;
exists (P1:d != 2)
)";
    auto g = gen(loop);
    CHECK(g.arch == validate::Arch::Sm90a);
    CHECK(has(g.code, "L1_LC:;"));
    // the loop's rounds, alike in every lane, stop it (not each lane's clock); no vote on a
    // timed-out wait decides the exit, since ptxas would then serialize the wgmmas
    CHECK(has(g.code, "if (++rounds0 > 65536u) stuck = true; else"));
    CHECK(!has(g.code, "_sync(0xffffffffu, stuck)"));
    CHECK(has(g.code, "goto L1_LC;"));
    CHECK(has(g.code, "rounds0 = 0;")); // counted afresh each time the loop is entered
    // a spin on a value read from shared memory: the lanes could read it apart
    std::string spin = loop;
    spin.replace(spin.find(" | mov.b32 k, 0 ;"), std::string(" | mov.b32 k, 0 ;").size(),
                 " | LS: ;\n | ld.shared::cta.u32 f, [b] ;\n | setp.eq.u32 p, f, 0 ;\n"
                 " | @p bra LS ;");
    CHECK_THAT(refusal(spin), Catch::Contains("setp on a register not set from constants alone"));
}

TEST_CASE("warp-wide control flow: a jump over an mma is well-formed C++, text-order checks "
          "refuse loops",
          "[validate]") {
    // a forward branch over a wgmma with A in registers: its A value is declared, then set
    const std::string over = R"(PTX W1
{ b @ shared 0 = 1; P0:d = 0; P0:pa = 2; P0:k = 0; }
 P0@cta 0,gpu 0 ;
 setp.eq.s32 skip, k, 1 ;
 @skip bra DONE ;
 wgmma.fence.sync.aligned ;
 wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {d}, {pa}, [b], 1, 1, 1, 0 ;
 wgmma.commit_group.sync.aligned ;
 wgmma.wait_group.sync.aligned 0 ;
 DONE: ;
exists (P0:d != 2)
)";
    const auto g = gen(over);
    CHECK(has(g.code, "goto L0_DONE;"));
    CHECK(has(g.code, "unsigned wa"));
    CHECK_FALSE(has(g.code, "const unsigned wa0"));
    // inside a loop, whether A is written after the fence is a matter of the next round
    std::string loop = over;
    loop.replace(loop.find(" setp.eq.s32 skip, k, 1 ;"),
                 std::string(" setp.eq.s32 skip, k, 1 ;").size(), " L: ;");
    loop.replace(loop.find(" @skip bra DONE ;"), std::string(" @skip bra DONE ;").size(),
                 " add.s32 pa, pa, 1 ;");
    loop.replace(loop.find(" DONE: ;"), std::string(" DONE: ;").size(),
                 " add.s32 k, k, 1 ;\n setp.lt.s32 more, k, 2 ;\n @more bra L ;");
    CHECK_THAT(refusal(loop), Catch::Contains("wgmma with A in registers inside a loop"));
    // no control flow, but a predicate from a loaded value: only lane 0 would hold it
    const std::string loaded = R"(PTX W3
{ x @ shared 0 = 1; a0 @ shared 0 = 0; b @ shared 0 = 1; P0:d = 0; }
 P0@cta 0,gpu 0 ;
 ld.shared::cta.u32 r, [x] ;
 setp.ne.s32 sc, r, 0 ;
 wgmma.fence.sync.aligned ;
 wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {d}, [a0], [b], sc, 1, 1, 0, 0 ;
 wgmma.commit_group.sync.aligned ;
 wgmma.wait_group.sync.aligned 0 ;
exists (P0:d != 0)
)";
    CHECK_THAT(refusal(loaded), Catch::Contains("setp on a register not set from constants alone"));
}

TEST_CASE("barrier.cluster runs as written, the cluster's other threads run as many pairs",
          "[validate]") {
    const std::string mp = R"(PTX BC
{ x @ shared 0 = 0; P1:r0 = 0; }
 P0@cta 0,cluster 0,gpu 0        | P1@cta 1,cluster 0,gpu 0         ;
 st.shared::cluster.u32 [x@0], 1 | barrier.cluster.arrive.aligned   ;
 barrier.cluster.arrive.aligned  | barrier.cluster.wait.aligned     ;
 barrier.cluster.wait.aligned    | ld.shared::cluster.u32 r0, [x@0] ;
exists (P1:r0 == 0)
)";
    validate::Generated g = gen(mp);
    // not .aligned: the lanes of a warp (each an instance) may reach it apart
    CHECK(has(g.code, "asm volatile(\"barrier.cluster.arrive;\" : : : \"memory\");"));
    CHECK(has(g.code, "asm volatile(\"barrier.cluster.wait;\" : : : \"memory\");"));
    // "wait for all non-exited threads of the cluster" (9.7.15.3): idle warps and lanes too
    CHECK(has(g.code, "constexpr unsigned kClusterPhases[] = {1u, };"));
    CHECK(has(g.code, "if (th < 0) litmus::clusterPhases(kClusterPhases[role % "
                      "kLitmusClusters]);"));
    // the relaxed arrive keeps its .relaxed
    std::string relaxed = mp;
    relaxed.replace(relaxed.find(" barrier.cluster.arrive.aligned  |"), 34,
                    " barrier.cluster.arrive.relaxed.aligned |");
    CHECK(has(gen(relaxed).code, "\"barrier.cluster.arrive.relaxed;\""));
    // in a thread with control flow the number of pairs is not fixed: refused
    std::string looped = mp;
    const std::string wait = " barrier.cluster.wait.aligned    | ld.";
    looped.replace(looped.find(wait), wait.size(),
                   " barrier.cluster.wait.aligned    | L1: ;\n | ld.");
    CHECK(has(refusal(looped), "barrier.cluster in a thread with control flow"));
    // no barrier.cluster in a test: no pairs for the other threads
    CHECK_FALSE(has(gen(R"(PTX NB
{ x = 0; P1:r0 = 0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.relaxed.gpu.global.u32 [x], 1 | ld.relaxed.gpu.global.u32 r0, [x] ;
exists (P1:r0 == 2)
)")
                        .code,
                    "clusterPhases"));
}

TEST_CASE("an accumulator's slices are refused: the harness has no lanes of one location",
          "[validate]") {
    auto why = refusal(R"(PTX SLICES
{ a @ shared 0 = 2; b @ shared 0 = 3; s0 @ tmem 0 = 0; s1 @ tmem 0 = 0; }
 P0@cta 0,gpu 0 ;
 tcgen05.mma.cta_group::1.kind::f16 {s0, s1}, [a], [b], I0, 1 ;
exists (s0 == 0)
)");
    CHECK(why.find("tensor-memory slices") != std::string::npos);
}
