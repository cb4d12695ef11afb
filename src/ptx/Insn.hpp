// A decoded PTX instruction: one typed struct per instruction family, qualifiers as enums.
#pragma once

#include "ir/Event.hpp"
#include "litmus/Ast.hpp"

#include <iterator>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ptxmc::ptx {

// Scope, semantics and proxy are the memory model's own notions: one enum each, in ir/.
using ir::Proxy;
using ir::Scope;

/** A memory-ordering qualifier as written (.volatile is kept apart: it prints differently). */
enum class Sem { None, Weak, Relaxed, Acquire, Release, AcqRel, Volatile, Sc };

/** A state-space qualifier as written (.shared and .shared::cta mean the same, print apart);
 *  not ir::Space, the kind of memory a location of the checked program lives in. */
enum class StateSpace { None, Global, Shared, SharedCta, SharedCluster };

enum class AtomOp { Add, And, Or, Xor, Max, Min, Exch, Cas, Sub, Inc, Dec };

/**
 * A 16-bit floating-point element type of atom/red and cp.reduce.async.bulk ({Atom} Table 41):
 * .f16 and .bf16 one element, .f16x2 and .bf16x2 two packed in a 32-bit register, each an element
 * of its own in memory ("atom instruction on packed type or vector type, accesses adjacent scalar
 * elements in memory ... the atomicity is guaranteed separately for each").
 */
enum class HalfType { None, F16, Bf16, F16x2, Bf16x2 };

/** The 8-bit floating-point element types of multimem ({Multimem}): one, two or four packed. */
enum class Fp8Type { None, E5m2, E5m2x2, E5m2x4, E4m3, E4m3x2, E4m3x4 };

/** A data-type suffix: .b32, .u64, .f16, .pred, ... */
struct Type {
    char kind = 'b'; ///< 'b', 'u', 's', 'f', or 'p' for .pred
    int bits = 32;
    bool operator==(const Type&) const = default;
};

/** Generic-proxy loads and stores spelled through another proxy (sust, tld, ldc, ...). */
enum class LdName { Ld, Suld, Tld, Cold, Ldc };
enum class StName { St, Sust };
enum class AtomName { Atom, Suatom, Red, Sured };

struct Ld {
    LdName name = LdName::Ld;
    Sem sem = Sem::None;
    Scope scope = Scope::None;
    StateSpace space = StateSpace::None;
    std::vector<Type> types;
};

struct St {
    StName name = StName::St;
    Sem sem = Sem::None;
    Scope scope = Scope::None;
    StateSpace space = StateSpace::None;
    std::vector<Type> types;
    /// st.async{.weak}{.cluster}.shared::cluster.mbarrier::complete_tx::bytes{.v2,.v4}.type
    /// [a], b, [mbar] (PTX ISA #data-movement-and-conversion-instructions-st-async): a store into
    /// another CTA's shared memory that completes its bytes on an mbarrier there
    bool async = false;
    int vec = 1;
    /// st.async{.mmio}.release.{gpu,sys}{.global}.type [a], b (9.4, {StAsync}): with sem Release
    /// "a release store to global memory", a strong write with no completion mechanism
    bool mmio = false;
};

/** atom (returns the old value) and red (returns nothing). */
struct Atom {
    AtomName name = AtomName::Atom;
    Sem sem = Sem::None;
    Scope scope = Scope::None;
    StateSpace space = StateSpace::None;
    AtomOp op = AtomOp::Add;
    std::vector<Type> types;
    /// .L2::cache_hint: a trailing cache_policy operand, "treated as a performance hint only, and
    /// does not change the memory consistency behavior of the program" ({Atom}, {Red})
    bool cacheHint = false;
    /// .noftz (.add.f32): "preserves subnormal inputs and results" where atom.add.f32 without
    /// it "flushes subnormal inputs and results to sign-preserving zero on global memory"
    bool noftz = false;
    /// .f16, .bf16, .f16x2, .bf16x2 (then `types` is empty)
    HalfType half = HalfType::None;
    /// .v2/.v4/.v8 (9.4 vector atomics on .global): operands d and b are brace-enclosed vectors
    /// of this many registers, each to the next element of the array [a] names
    int vec = 1;
    bool returns() const { return name == AtomName::Atom || name == AtomName::Suatom; }
    /// .f16x2 / .bf16x2: two elements in each register
    bool packed() const { return half == HalfType::F16x2 || half == HalfType::Bf16x2; }
};

/** fence{.sc,.acq_rel,.acquire,.release}.scope */
struct Fence {
    Sem sem = Sem::None; ///< None, Sc, AcqRel, Acquire or Release
    Scope scope = Scope::Cta;
    /// fence.mbarrier_init.release.cluster (PTX ISA
    /// #parallel-synchronization-and-communication-instructions-membar): releases prior
    /// mbarrier.init only
    bool mbarrierInit = false;
    /// fence.release.sync_restrict::shared::cta.cluster (SharedCta) and
    /// fence.acquire.sync_restrict::shared::cluster.cluster (SharedCluster) ({Membar}): "the
    /// effect of the fence only applies to operations performed on objects in" that state space
    StateSpace syncRestrict = StateSpace::None;
};

/** membar.{cta,gl,sys}; .gl is the GPU scope. */
struct Membar {
    Scope scope = Scope::Cta;
};

/// The fabric kinds (9.3) are the uni-directional .to_proxykind::from_proxykind_fabric pairs:
/// GenericFabric is .generic::fabric (from the fabric proxy to the generic one), FabricGeneric
/// .fabric::generic, FabricFabric .fabric::fabric ({Membar})
enum class ProxyKind {
    Alias,
    Async,
    Surface,
    Texture,
    Constant,
    Tensormap,
    GenericFabric,
    FabricGeneric,
    FabricFabric
};

/**
 * fence.proxy.{alias,async{.global,.shared::cta,...},surface,texture,constant} (and its old
 * spelling membar.proxy), the uni-directional fence.proxy.tensormap::generic.release.scope /
 * fence.proxy.tensormap::generic.acquire.scope [addr], 128, and the fabric proxy fences
 * fence.proxy.{generic::fabric,fabric::generic,fabric::fabric}.alias.{release,acquire}.sys (PTX ISA
 * #parallel-synchronization-and-communication-instructions-membar).
 */
struct ProxyFence {
    ProxyKind kind = ProxyKind::Alias;
    StateSpace space = StateSpace::None; ///< .async only
    Sem sem = Sem::None;                 ///< .tensormap::generic: Release or Acquire
    Scope scope = Scope::None;           ///< .tensormap::generic only
    /// fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster and
    /// fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster ({Membar}):
    /// SharedCta / SharedCluster (kind Async, sem and scope set); None otherwise
    StateSpace syncRestrict = StateSpace::None;
    /// fence.proxy.async::generic.release.sync_restrict::shared::cluster::read.cluster (9.4):
    /// syncRestrict SharedCluster, and the fence "only applies to read operations"
    bool readOnly = false;
    /// spelled membar.proxy.proxykind: "On sm_70 and higher, membar.proxy is a synonym for
    /// fence.proxy" ({Membar}); printed as written
    bool membar = false;
};

/**
 * tensormap.replace.tile.field{.ss}.b1024.type [addr], {ord,} new_val (PTX ISA
 * #data-movement-and-conversion-instructions-tensormap-replace): a weak generic-proxy write of the
 * whole tensor-map object.
 */
struct TensormapReplace {
    std::string field;
    StateSpace space = StateSpace::None;
    std::vector<Type> types;
};

/**
 * tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
 * [dst], [src], 128 (PTX ISA
 * #parallel-synchronization-and-communication-instructions-tensormap-cp-fenceproxy): copies a
 * tensor map from shared to global memory, then a release proxy fence from the generic to the
 * tensormap proxy.
 */
struct TensormapCopy {
    Scope scope = Scope::Gpu;
};

/** barrier{.cta}.red's operations ({BarBarrier}): .popc (.u32), .and and .or (.pred). */
enum class BarrierRedOp { Popc, And, Or };

/**
 * bar{.cta}.{sync,arrive,red} / barrier{.cta}.{sync,arrive,red}{.aligned} (PTX ISA
 * #parallel-synchronization-and-communication-instructions-bar), and
 * barrier.cluster.{arrive{.release,.relaxed},wait{.acquire}}{.aligned} ({BarrierCluster}).
 */
struct Barrier {
    bool barrierSpelling = false; ///< `barrier` rather than `bar`
    bool cta = false;
    bool aligned = false;
    bool arrive = false;  ///< arrive only: no wait (CTA: bar.arrive; cluster: the arrive half)
    bool cluster = false; ///< barrier.cluster: every thread of the cluster, split in two
    bool wait = false;    ///< barrier.cluster.wait
    Sem sem = Sem::None;  ///< cluster arrive: Release (default) or Relaxed; wait: Acquire
    /// bar.red d, a{, b}, {!}c: a bar.sync whose threads also combine their predicate c
    bool red = false;
    BarrierRedOp redOp = BarrierRedOp::Popc;
};

/**
 * red.async (PTX ISA {RedAsync} #parallel-synchronization-and-communication-instructions-red-async,
 * 9.4 text), two forms:
 * red.async.relaxed.cluster{.shared::cluster}{.mbarrier::complete_tx::bytes}.op.type [a], b,
 * [mbar]: a relaxed reduction on another CTA's shared memory, then a complete-tx on the mbarrier
 * there
 * ("The complete-tx operation on the mbarrier has .release semantics at .cluster scope");
 * red.async{.mmio}.release.{gpu,sys}{.global}.add.type [a], b: "a strong memory operation with
 * .release semantics at the scope specified by .scope" (.mmio only with .sys).
 */
struct RedAsync {
    Sem sem = Sem::Relaxed; ///< Relaxed or Release
    Scope scope = Scope::Cluster;
    StateSpace space = StateSpace::None; ///< None, SharedCluster (relaxed) or Global (release)
    bool mmio = false;
    bool mbarrierWritten = false; ///< .mbarrier::complete_tx::bytes written (the relaxed default)
    AtomOp op = AtomOp::Add;
    std::vector<Type> types;
};

/** Which multimem.* instruction (the bulk copies are BulkCopy with `multimem`). */
enum class MultimemKind { LdReduce, St, Red, StAsync, RedAsync };

/**
 * multimem.ld_reduce, multimem.st, multimem.red ({Multimem}
 * #data-movement-and-conversion-instructions-multimem), multimem.st.async ({MultimemStAsync}) and
 * multimem.red.async ({MultimemRedAsync}): "The multimem.* operations operate
 * on multimem addresses and accesses all of the multiple memory locations which the multimem
 * address points to". `sem` as written (None: the default, .weak for ld_reduce and st, .relaxed
 * for red); `scope` None: red's "If the .scope qualifier is not specified for multimem.red then
 * .sys scope is assumed by default".
 */
struct Multimem {
    MultimemKind kind = MultimemKind::St;
    Sem sem = Sem::None;
    Scope scope = Scope::None;
    StateSpace space = StateSpace::None; ///< None (generic addressing) or Global
    AtomOp op = AtomOp::Add;             ///< ld_reduce, red, red.async
    /// The element type: `types` (an integer, .f32 or .f64), else `half` or `fp8`
    std::vector<Type> types;
    HalfType half = HalfType::None;
    Fp8Type fp8 = Fp8Type::None;
    int vec = 1;         ///< .v2/.v4/.v8 of the floating-point forms: d and b are vectors
    bool accF32 = false; ///< ld_reduce's .acc::f32: 16-bit elements accumulated in .f32
    bool accF16 = false; ///< ld_reduce's .acc::f16 (8-bit elements; not computed)
    /** A floating-point element type (the second syntax of {Multimem}). */
    bool floating() const {
        return half != HalfType::None || fp8 != Fp8Type::None ||
               (types.size() == 1 && types[0].kind == 'f');
    }
    /** The bits of one element, a register of the vector: .f16x2 and .e4m3x4 are 32. */
    int elementBits() const {
        switch (half) {
        case HalfType::F16:
        case HalfType::Bf16:
            return 16;
        case HalfType::F16x2:
        case HalfType::Bf16x2:
            return 32;
        case HalfType::None:
            break;
        }
        switch (fp8) {
        case Fp8Type::E5m2:
        case Fp8Type::E4m3:
            return 8;
        case Fp8Type::E5m2x2:
        case Fp8Type::E4m3x2:
            return 16;
        case Fp8Type::E5m2x4:
        case Fp8Type::E4m3x4:
            return 32;
        case Fp8Type::None:
            break;
        }
        return types.empty() ? 32 : types[0].bits;
    }
};

/** The .shape of ldmatrix (m8n8, m16n16, m8n16) and stmatrix (m8n8, m16n8). */
enum class MatrixShape { M8n8, M16n16, M8n16, M16n8 };

/** The element type(s): .b16, .b8, .b8x16.b6x16_p32, .b8x16.b4x16_p64 (ldmatrix), .s8.s4. */
enum class MatrixType { B16, B8, B8x16B6x16P32, B8x16B4x16P64, S8S4 };

/**
 * ldmatrix.sync.aligned.shape.num{.trans}{.ss}.type r, [p] (PTX ISA {Ldmatrix}
 * #warp-level-matrix-instructions-ldmatrix) and stmatrix.sync.aligned.shape.num{.trans}{.ss}.type
 * [p], r ({Stmatrix} #warp-level-matrix-instructions-stmatrix): a warp collectively loads or stores
 * 1, 2 or 4 matrices in shared memory. "The ldmatrix instruction is treated as a weak memory
 * operation in the Memory Consistency Model" (stmatrix likewise). In a litmus test the thread
 * stands for its warp: one weak shared-memory read (write) of the one location [p] names.
 */
struct Matrix {
    bool store = false; ///< stmatrix, else ldmatrix
    MatrixShape shape = MatrixShape::M8n8;
    int num = 1; ///< .x1, .x2, .x4
    bool trans = false;
    StateSpace space =
        StateSpace::None; ///< None (generic addressing into .shared), Shared or SharedCta
    MatrixType type = MatrixType::B16;
    /** The 32-bit registers the vector operand holds per thread. */
    int registers() const { return shape == MatrixShape::M16n16 ? 2 * num : num; }
};

/** add, sub, mul{.lo}; and, or, xor (bitwise: the PTX ISA's logic and shift instructions). */
enum class ArithOp { Add, Sub, Mul, And, Or, Xor };

struct Arith {
    ArithOp op = ArithOp::Add;
    bool lo = false; ///< mul.lo
    std::vector<Type> types;
};

/** The `.shared{::cta,::cluster}` and `.b64` of every mbarrier instruction. */
struct MbarrierOperand {
    StateSpace space = StateSpace::None;
    bool b64 = false;
};

/**
 * cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr] (PTX ISA
 * #parallel-synchronization-and-communication-instructions-cp-async-mbarrier-arrive): an arrive-on
 * once the thread's prior cp.async complete; without .noinc the pending count is raised by one
 * first.
 */
struct CpAsyncArrive {
    bool noinc = false;
    MbarrierOperand mb;
};

/** mbarrier.init, or mbarrier.inval (PTX ISA {MbarrierInval}) when `inval`. */
struct MbarrierInit {
    MbarrierOperand mb;
    bool inval = false;
    /// mbarrier.init{.layout} (9.3, {MbarrierInit}): 0 unwritten (".layout::v0" by default), 0
    /// or 1 as written. v1 adds the payload report, which no modelled operation changes; its
    /// count range is [1, 2^9 - 1] ("[1, ..., 2^20 - 1] for mbarrier with .layout::v0")
    int layout = -1;
};

/**
 * mbarrier.pending_count{.layout::v0}.b64 count, state ({MbarrierPendingCount}): "the pending
 * count of the mbarrier object prior to the arrive-on operation from which the state register
 * was obtained". No memory or mbarrier operation: it reads a register.
 */
struct MbarrierPendingCount {
    bool layoutV0 = false; ///< .layout::v0 written
};

/**
 * mbarrier.check_layout.layout{.shared::cta}.b64 p, [addr] ({MbarrierCheckLayout}): "sets the
 * predicate operand p to True if the layout of the mbarrier object exactly matches the .layout
 * qualifier".
 */
struct MbarrierCheckLayout {
    int layout = 0; ///< 0 or 1: .layout::v0 or .layout::v1 (required)
    MbarrierOperand mb;
};

/** mbarrier.arrive{.expect_tx}, or mbarrier.arrive_drop ({MbarrierArriveDrop}) when `drop`. */
struct MbarrierArrive {
    bool expectTx = false;
    Sem sem = Sem::None;       ///< None, Release or Relaxed
    Scope scope = Scope::None; ///< None, Cta or Cluster
    MbarrierOperand mb;
    bool drop = false;
    bool noComplete = false; ///< .noComplete: must not complete the phase ({MbarrierArrive})
    /// .multicast::cluster::32b (PTX ISA 9.4): the operation on the mbarrier at the same
    /// CTA-relative offset in each CTA of the 32-bit ctaMask operand ({MbarrierArrive})
    bool multicast = false;
};

/** mbarrier.expect_tx / mbarrier.complete_tx */
struct MbarrierTx {
    bool complete = false;
    bool relaxed = false;
    Scope scope = Scope::None;
    MbarrierOperand mb;
    /// .multicast::cluster::32b (PTX ISA 9.4): on each CTA of ctaMask ({MbarrierExpectTx})
    bool multicast = false;
};

/**
 * mbarrier.test_wait / mbarrier.try_wait{.parity}{.phase_type::primary} (PTX ISA
 * {MbarrierTestWaitTryWait}); try_wait takes an optional suspend-time hint operand (`timeHint`,
 * nanoseconds: when a suspended thread gives up waiting, nothing else).
 */
struct MbarrierWait {
    bool tryWait = false;
    bool parity = false;
    Sem sem = Sem::None; ///< None, Acquire or Relaxed
    Scope scope = Scope::None;
    MbarrierOperand mb;
    bool phasePrimary = false; ///< .phase_type::primary written (9.3): the default phase
    /// .phase_type::conditional (9.3, with .parity only): the conditional phase, which completes
    /// with the primary one unless a report-on operation made the payload report non-zero; no
    /// modelled operation reports, so it is the primary phase ({MbarrierTestWaitTryWait})
    bool phaseConditional = false;
};

/**
 * A copy's .report_mechanism (9.4, {AsyncCopyReportMechanisms}): what it inspects in the data it
 * copies from global memory, and on a match "issues a report-on operation on the mbarrier".
 * `.mbarrier::report::validity::per_16bytes::N` samples one element of each aligned 16-byte
 * chunk (FP32, FP16, FP8 or FP4, N its -0 bit pattern); `::per_element::ff` matches every byte.
 */
enum class ReportMechanism {
    Disabled,     ///< .mbarrier::report::disabled, or unwritten: "No inspection"
    Per16Fp32,    ///< ::per_16bytes::80000000
    Per16Fp16,    ///< ::per_16bytes::8000
    Per16Fp8,     ///< ::per_16bytes::80
    Per16Fp4,     ///< ::per_16bytes::8
    PerElementFF, ///< ::per_element::ff: "8bit/4bit" elements, "NaN / 0xF"
};

/** cp.async.bulk, and cp.async.bulk.tensor.Nd{.tile} (PTX ISA {TensorCopies}) when dims > 0. */
struct BulkCopy {
    StateSpace dst = StateSpace::Global;
    StateSpace src = StateSpace::Global;
    bool viaMbarrier = false; ///< else .bulk_group
    bool multicast = false;
    std::vector<Type> types;
    int dims = 0;      ///< tensor copies: .1d ... .5d
    bool tile = false; ///< .tile written (the default load mode)
    /// The other load modes ({CpAsyncBulkTensor}): "tile::gather4", "tile::scatter4", "im2col",
    /// "im2col::w" or "im2col::w::128"; empty for .tile. The tile location stands for the bytes the
    /// mode moves, as in .tile mode: the mode changes the coordinates and operands, not the events
    std::string loadMode;
    int ctaGroup = 0; ///< .cta_group::1 / ::2: the mbarrier may be the peer CTA's
    /// cp.reduce.async.bulk.dst.src.mechanism.redOp.type (PTX ISA {CpReduceAsyncBulk}): each
    /// element of the destination is reduced with the source's. With dims > 0 it is
    /// cp.reduce.async.bulk.tensor.Nd.global.shared::cta.redOp{.tile}.bulk_group
    /// ({CpReduceAsyncBulkTensor}): no .type, "The type of each tensor data element in the source
    /// and the destination tensor is specified in Tensor-map" (the tile's `, elem T` here)
    std::optional<AtomOp> reduce = std::nullopt;
    /// cp.reduce.async.bulk .add.noftz.{f16,bf16,f32}: an addition that keeps subnormals
    bool noftz = false;
    /// cp.reduce.async.bulk .f16 / .bf16 elements (.add.noftz, .min, .max to global memory)
    HalfType half = HalfType::None;
    /// .weak, or .relaxed with a scope (9.3): "When .sem is .relaxed, the data copy accesses
    /// memory with naturally-aligned strong memory operations with element-wise atomic size
    /// specified by .type and thread scope specified by .scope" ({CpAsyncBulk}); a reduction's
    /// .relaxed.scope is the scope of its element-wise reductions ({CpReduceAsyncBulk})
    Sem sem = Sem::None;
    Scope scope = Scope::None;
    /// .multicast::cluster::16b / ::32b (9.4): the width of ctaMask (0: not written, 16 bits)
    int multicastBits = 0;
    /// .L2::cache_hint: a trailing cache_policy operand, "a hint to the cache subsystem [that]
    /// may not always be respected" ({CpAsyncBulk}): no memory-model effect
    bool cacheHint = false;
    /// multimem.cp.async.bulk / multimem.cp.reduce.async.bulk (.global.shared::cta.bulk_group,
    /// {MultimemCpAsyncBulk}, {MultimemCpReduceAsyncBulk}): dstMem is a multimem address, the
    /// copy writes (reduces into) each location it points to
    bool multimem = false;
    /// .ignore_oob (9.2, global to .shared::cta): operands ignoreBytesLeft, ignoreBytesRight
    /// follow size; "the value of the corresponding bytes in destination shared memory ... is
    /// indeterminate" ({CpAsyncBulk}), so ptxmc takes them as 0 only
    bool ignoreOob = false;
    /// .cp_mask (global from .shared::cta, .bulk_group; and the multimem copy): a trailing
    /// 16-bit byteMask operand, "The i-th bit in the 16-bit wide byteMask operand specifies
    /// whether the i-th byte of each 16-byte wide chunk of source data is copied"
    bool cpMask = false;
    /// .report_mechanism (9.4, global to shared memory with .mbarrier::complete_tx::bytes)
    ReportMechanism report = ReportMechanism::Disabled;
};

/**
 * cp.async.bulk.prefetch.L2.global{.L2::cache_hint | .L2::evict_last} [srcMem], size{, policy}
 * ({CpAsyncBulkPrefetch}) and cp.async.bulk.prefetch.tensor.Nd.L2.global{.load_mode}
 * {.L2::cache_hint} [tensorMap, {coords}]{, im2colInfo}{, policy} ({CpAsyncBulkPrefetchTensor}):
 * "a hint to the system to initiate the asynchronous prefetch of data to the cache", "treated as
 * a weak memory operation": it changes no value any thread reads and is ordered with nothing.
 */
struct BulkPrefetch {
    int dims = 0;           ///< the tensor form: .1d ... .5d
    std::string loadMode;   ///< the tensor form's .load_mode as written (empty: .tile by default)
    bool cacheHint = false; ///< .L2::cache_hint: a cache_policy operand follows
    bool evictLast = false; ///< .L2::evict_last (9.4, the non-tensor form)
    /// .override::global_address (9.4, the tensor form): the tile operand is [tensorMap,
    /// gAddrToOverride, {coordinates}] ({TensorBaseAddressOverride})
    bool overrideAddress = false;
};

/**
 * clusterlaunchcontrol.try_cancel.async{.shared::cta}.mbarrier::complete_tx::bytes
 * {.multicast::cluster::all}.b128 [addr], [mbar] ({ClcTryCancel}): "requests atomically cancelling
 * the launch of a cluster that has not started running yet. It asynchronously writes an opaque
 * response to shared memory indicating whether the operation succeeded or failed", then a
 * complete-tx of its 16 bytes on [mbar]; with .multicast::cluster::all into [addr] and onto
 * [mbar] of every CTA of the requesting cluster.
 */
struct ClcTryCancel {
    bool sharedCta = false; ///< .shared::cta, else generic addressing
    bool multicast = false; ///< .multicast::cluster::all
};

/** What clusterlaunchcontrol.query_cancel decodes ({ClcQueryCancel}). */
enum class ClcQuery { IsCanceled, FirstCtaid, FirstCtaidX, FirstCtaidY, FirstCtaidZ };

/**
 * clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, h; .get_first_ctaid.v4.b32.b128
 * {x, y, z, _}, h; .get_first_ctaid::{x,y,z}.b32.b128 r, h ({ClcQueryCancel}): decodes a
 * try_cancel response a thread loaded; no memory access.
 */
struct ClcQueryCancel {
    ClcQuery query = ClcQuery::IsCanceled;
};

/** cp.async.bulk.commit_group; cp.async.commit_group when `nonBulk` (PTX ISA
 * #data-movement-and-conversion-instructions-cp-async-commit-group). */
struct BulkCommit {
    bool nonBulk = false;
};

/** cp.async.bulk.wait_group{.read} N; cp.async.wait_group N / wait_all when `nonBulk`. */
struct BulkWait {
    bool read = false;
    bool nonBulk = false;
    bool all = false; ///< cp.async.wait_all: commit_group, then wait_group 0
};

/**
 * Non-bulk cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size (PTX ISA
 * #data-movement-and-conversion-instructions-cp-async): a weak generic-proxy copy from global to
 * the CTA's shared memory.
 */
struct CpAsync {
    bool cg = false;
    StateSpace dst = StateSpace::Shared;
    /// .L2::cache_hint (a trailing cache-policy operand) and .L2::64B/128B/256B (the prefetch
    /// size): performance hints of {CpAsync}, no memory-model effect
    bool cacheHint = false;
    std::string prefetchSize; ///< "L2::64B", "L2::128B", "L2::256B" or empty
    /// {, src-size} written as an immediate below cp-size: "the size of the data in bytes to be
    /// copied from src to dst ... remaining bytes in destination dst are filled with zeros"
    std::optional<std::int64_t> srcSize = std::nullopt;
    /// {, ignore-src} written as a register, the predicate: "If the source data is ignored then
    /// zeros will be copied to destination dst" ({CpAsync})
    bool ignoreSrc = false;
};

/** tcgen05.alloc / tcgen05.dealloc */
struct Tcgen05Alloc {
    bool dealloc = false;
    int ctaGroup = 1;
    bool sharedCta = false; ///< alloc's `.shared::cta`
    bool exclusive = false; ///< `.exclusive` (PTX ISA 9.4): an exclusive allocation
};

struct Tcgen05Relinquish {
    int ctaGroup = 1;
};

/** A collector-buffer operation of tcgen05.mma (spelled in ptx/Tables.cpp, kCollectorOps). */
enum class CollectorOp { Fill, Use, LastUse, Discard };

/** One `.collector::BUFFER::op` qualifier of tcgen05.mma ({Tcgen05Mma#}, {Tcgen05MmaWs#}). */
struct Collector {
    std::string buffer; ///< a, b (9.4) or, with .ws, b0 ... b3
    CollectorOp op = CollectorOp::Discard;
};

/**
 * tcgen05.mma{.ws}{.sp}.cta_group.kind{.block_scale{.scale_vectorsize}}{.decompress::lut::b}
 * {.ashift}{.collector::a::op}{.collector::b::op | .collector::bN::op}
 * (PTX ISA {Tcgen05Mma#}, {Tcgen05MmaSp#}, {Tcgen05MmaWs#}, {Tcgen05MmaWsSp#}). Operands:
 * [d], A, [b], then [sp-meta-tmem] (`sp`) or [b-decompress-metadata] (`lutB`), idesc, then
 * [scale-A-tmem], [scale-B-tmem] (`blockScale`), enable-input-d, then .ws's
 * zero-column-mask-desc (`zeroColumnMask`).
 */
struct Tcgen05Mma {
    int ctaGroup = 1;
    std::string kind; ///< the text after `kind::` (see kMmaKinds for the PTX ones)
    bool ws = false;  ///< `.ws`: weight stationary ({Tcgen05MmaWs})
    bool sp = false;  ///< `.sp`: sparse A, its metadata in tensor memory ({Tcgen05MmaSp})
    /// `.block_scale`: A and B scaled by matrices in tensor memory ({Tcgen05BlockScaling})
    bool blockScale = false;
    std::string scaleVec; ///< `.scale_vec::1X` ... `.block32` as written (no dot), or empty
    /// `.decompress::lut::b` (9.4): B's elements looked up in a table in tensor memory
    bool lutB = false;
    bool ashift = false; ///< `.ashift`: A's rows shifted down by one row as the mma reads them
    /// the collector buffer of A (`::a`) and of B (`::b`, or `::bN` with .ws), when written;
    /// unwritten, the text's default is discard
    std::optional<Collector> collectorA, collectorB;
    bool zeroColumnMask = false; ///< .ws: a zero-column-mask-desc operand follows enable-input-d
    /** Operands the form takes (disable-output-lane and scale-input-d aside). */
    std::size_t operandCount() const {
        return 5 + (sp ? 1 : 0) + (lutB ? 1 : 0) + (blockScale ? 2 : 0) + (zeroColumnMask ? 1 : 0);
    }
    /** Where enable-input-d is: last, or before the zero-column mask. */
    std::size_t enableIndex() const { return operandCount() - (zeroColumnMask ? 2 : 1); }
};

/** tcgen05.cp shapes, rows x bits (spelled in ptx/Tables.cpp, kCpShapes). */
enum class CpShape { Rows128Bits256, Rows4Bits256, Rows128Bits128, Rows64Bits128, Rows32Bits128 };
enum class CpWarps { None, X2_02_13, X2_01_23, X4 };

struct Tcgen05Cp {
    int ctaGroup = 1;
    CpShape shape = CpShape::Rows128Bits256;
    CpWarps warps = CpWarps::None;
    std::vector<std::string> decompress; ///< .b8x16, .b6x16_p32, .b4x16_p64 as written
};

struct Tcgen05Shift {
    int ctaGroup = 1;
};

/** tcgen05.ld/st shapes, lanes x bits (spelled in ptx/Tables.cpp, kLdStShapes). */
enum class LdStShape {
    Lanes16Bits64,
    Lanes16Bits128,
    Lanes16Bits256,
    Lanes32Bits32,
    Lanes16Bits32Twice, ///< .16x32bx2: two .16x32b accesses, at taddr and taddr+immHalfSplitoff
};
enum class Pack { None, Pack16b, Unpack16b };

/** The .sync.aligned.shape.num{.pack}.b32 of tcgen05.ld and tcgen05.st. */
struct LdStFormat {
    LdStShape shape = LdStShape::Lanes32Bits32;
    int repeat = 1; ///< the .xN
    Pack pack = Pack::None;
    /** Registers per thread (PTX ISA #tcgen05-instructions-tcgen05-ld). */
    std::size_t registers() const;
};

/** tcgen05.ld.red's reduction (PTX ISA {Tcgen05Ld}): .min/.max over the loaded values of each
 *  thread, of type .u32, .s32 or .f32 (ptxmc's values are integers: .f32 compares them as
 *  signed). */
struct LdRed {
    bool max = true;
    std::string type = "u32";
    bool abs = false; ///< .abs (.f32): the reduction takes the loaded values' absolute values
    bool nan = false; ///< .NaN (.f32): a NaN among them makes the result the canonical NaN
};

/**
 * The in-line sparse compression of tcgen05.ld{.red}.spcompress (9.4, sm_107a; {Tcgen05Ld}, as
 * tests/ptx/syntax-9.4.txt records its syntax line):
 * `.sync.aligned.32x32b.num.{min,max}.sp::2:4{.abs}{.NaN}.f32.b2 {mdata}, {cdata}, {redval,}
 * [taddr]`, of each 4 loaded values 2 kept by their order (.NaN with .red only).
 */
struct LdSpcompress {
    bool max = true;
    bool abs = false;
    bool nan = false;
    /** mdata's registers (the kept values' 2-bit indices) and cdata's (the kept values). */
    static std::size_t indexRegisters(int repeat) {
        return static_cast<std::size_t>((repeat + 31) / 32);
    }
    static std::size_t valueRegisters(int repeat) { return static_cast<std::size_t>(repeat / 2); }
};

struct Tcgen05Ld {
    LdStFormat format;
    std::optional<LdRed> red{};               ///< `tcgen05.ld.red` (redval is the second operand)
    std::optional<LdSpcompress> spcompress{}; ///< `.spcompress`, with or without `.red`
};

struct Tcgen05St {
    LdStFormat format;
};

struct Tcgen05Wait {
    bool ld = true; ///< wait::ld, else wait::st
};

struct Tcgen05Commit {
    int ctaGroup = 1;
    StateSpace space = StateSpace::None;
    bool multicast = false;
    /// `.multicast::cluster::16b` / `::32b` (PTX ISA 9.4): the width of ctaMask; 0 when the
    /// plain `.multicast::cluster` (16-bit) is written
    int multicastBits = 0;
    /// `.sync_restrict::shared::read::mma::a` (PTX ISA 9.4): arrive once the prior mma have read
    /// their A matrices from shared memory, not on their completion
    bool readMmaA = false;
};

struct Tcgen05Fence {
    bool before = true; ///< fence::before_thread_sync, else after
};

/**
 * wgmma.fence.sync.aligned (PTX ISA {WgmmaFence#}): orders the warpgroup's prior register
 * accesses before later wgmma.mma_async accesses of the same registers.
 */
struct WgmmaFence {};

/**
 * wgmma.mma_async.sync.aligned.shape.dtype.atype.btype{.satfinite}{.and.popc} d, a-desc|a,
 * b-desc, scale-d{, imm...} (PTX ISA {WgmmaMmaAsync#}). In a litmus test a descriptor is the
 * shared-memory location it describes (`[a]`), A may be a register vector, and d is the
 * accumulator register vector of the thread (which stands for the warpgroup).
 */
struct WgmmaMma {
    int m = 64, n = 8, k = 16;
    std::string dtype = "f32", atype = "f16", btype = "f16"; ///< as written
    bool satfinite = false;
    bool andPopc = false; ///< .and.popc (single-bit)
    /// wgmma.mma_async.sp (PTX ISA {WgmmaMmaAsyncSp#}): A sparse, K twice the dense K; the
    /// operands sp-meta (a register) and sp-sel (an immediate) follow b-desc
    bool sp = false;
    /** The number of immediate operands after scale-d the PTX form takes (A in shared memory
     *  when `aShared`). */
    std::size_t immediates(bool aShared) const;
};

/** wgmma.commit_group.sync.aligned (PTX ISA {WgmmaCommitGroup#}). */
struct WgmmaCommit {};

/** wgmma.wait_group.sync.aligned N (PTX ISA {WgmmaWaitGroup#}); N is the operand. */
struct WgmmaWait {};

/** Integer comparisons of setp and of Dat3M's compare-and-branch (PTX ISA {Setp}). */
enum class CmpOp { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs };

/** bra{.uni} LABEL, and Dat3M's `goto LABEL` (PTX ISA #control-flow-instructions-bra). */
struct Bra {
    bool uni = false;
    bool gotoSpelling = false;
};

/** Dat3M's compare-and-branch `beq a, b, LABEL` (also bne, blt, ble, bgt, bge): signed. */
struct CompareBranch {
    CmpOp cmp = CmpOp::Eq;
};

/** setp.CmpOp.type p, a, b (PTX ISA {Setp}): p = 1 when the comparison holds, else 0. */
struct Setp {
    CmpOp cmp = CmpOp::Eq;
    Type type;
};

/** mov.type d, a (PTX ISA {Mov}) between registers and immediates. */
struct Mov {
    Type type;
};

/** elect.sync d, p, membermask (PTX ISA {Elect}; `d|p` is written `d, p` in a cell). */
struct Elect {};

/*
 * The warp collectives below compute a value across the lanes of a warp and touch no memory. A
 * litmus thread is a warp standing as its elected lane 0, and its other lanes run the same
 * instructions with the same values (a uniform warp, litmus/README.md): every lane is active
 * at each instruction the thread runs, so a membermask must hold all 32 lanes ("The behavior
 * of vote.sync is undefined if the executing thread is not in the membermask", likewise
 * match.sync, redux.sync and bar.warp.sync), and a reduction combines 32 equal values.
 */

/** vote's and vote.sync's modes ({Vote}, {VoteSync}). */
enum class VoteMode { All, Any, Uni, Ballot };

/**
 * vote.{all,any,uni}.pred d, {!}a and vote.ballot.b32 d, {!}a ({Vote}, deprecated), and the
 * same with .sync and a membermask operand ({VoteSync}). Over a uniform warp .all and .any are
 * a, .uni is true, and .ballot is every lane's bit where a holds.
 */
struct Vote {
    VoteMode mode = VoteMode::All;
    bool sync = false; ///< vote.sync: a third operand, the membermask
};

/**
 * match.any.sync.type d, a, membermask and match.all.sync.type d{|p}, a, membermask
 * ({MatchSync}), .type .b32 or .b64: over a uniform warp every lane matches, so d is the
 * membermask and p is true.
 */
struct Match {
    bool all = false;
    Type type;
};

/** activemask.b32 d ({Activemask}): every lane of a uniform warp is active. */
struct Activemask {};

/** redux.sync's operations ({ReduxSync}). */
enum class ReduxOp { Add, Min, Max, And, Or, Xor };

/**
 * redux.sync.op.type dst, src, membermask ({ReduxSync}): .add/.min/.max on .u32/.s32,
 * .and/.or/.xor on .b32, .min/.max{.abs}{.NaN} on .f32. Over 32 equal values: .add is 32 times
 * src ("truncated to 32 bits"), .xor 0, the others src itself (.f32: its absolute value under
 * .abs, the canonical NaN where src is a NaN).
 */
struct Redux {
    ReduxOp op = ReduxOp::Add;
    Type type;
    bool abs = false; ///< .abs (.f32)
    bool nan = false; ///< .NaN (.f32)
};

/**
 * bar.warp.sync membermask ({BarWarpSync}): a barrier among the lanes of one warp. The lanes of
 * a litmus thread are one thread of the test, ordered by program order already: no event.
 */
struct BarWarpSync {};

/**
 * nondet.pred p: not PTX but ptxmc's (Dat3M's nondeterministic value, as a predicate). p is 0 or
 * 1 and every execution goes one way or the other; both are explored. It stands for a predicate
 * the program computes from data ptxmc does not model, such as a comparison of floating-point
 * values: `ptxmc kernel` writes it for a branch on such data whose two sides run different
 * memory or synchronization instructions (docs/kernel.md, "Branches on data").
 */
struct Nondet {};

/**
 * nanosleep.u32 t, t a register or an immediate (PTX ISA {Nanosleep}
 * #miscellaneous-instructions-nanosleep): "Suspends the thread for a sleep duration
 * approximately close to the delay t, specified in nanoseconds." A delay only: no memory effect
 * and no event, and a loop that sleeps between its tries still spins.
 */
struct Nanosleep {};

/**
 * setmaxnreg.{inc,dec}.sync.aligned.u32 imm-reg-count (PTX ISA {Setmaxnreg}
 * #miscellaneous-instructions-setmaxnreg): "Hint to change the number of registers owned by the
 * warp". It moves registers between the warp and its CTA's pool and touches no memory: no event,
 * and it orders nothing.
 */
struct Setmaxnreg {
    bool inc = false;
};

/**
 * griddepcontrol.{launch_dependents,wait} (PTX ISA {Griddepcontrol}
 * #parallel-synchronization-and-communication-instructions-griddepcontrol): control of dependent
 * grids. The ordering the text gives is between grids ("A release fence preceeding a
 * griddepcontrol.launch_dependents in program-order synchronizes with the start of a dependent
 * grid"; .wait waits "until all prerequisite grids in flight have completed"); a litmus test is
 * one grid, so within it neither orders anything: no event.
 */
struct Griddepcontrol {
    bool wait = false; ///< .wait, else .launch_dependents
};

/** exit / ret: the thread's path ends here (PTX ISA {Exit}, {Ret}). */
struct Exit {
    bool ret = false;
};

namespace detail {
/** std::variant of every type but the first (the generated list starts with a comma). */
template <class First, class... Rest> struct VariantOfRest { using type = std::variant<Rest...>; };
} // namespace detail

/** Every instruction the decoder knows, one alternative per row of Instructions.def. */
using Op = detail::VariantOfRest<void
#define PTXMC_INSN(Name, Family, forms) , Name
#include "ptx/Instructions.def"
                                 >::type;

/** The instruction families, in the order of Instructions.def. */
enum class Family { Generic, Mbarrier, Bulk, Tcgen05, Wgmma, Control };

/** Each alternative's family, indexed like Op (Instructions.def's second column). */
inline constexpr Family kFamilies[] = {
#define PTXMC_INSN(Name, Family_, forms) Family::Family_,
#include "ptx/Instructions.def"
};
static_assert(std::size(kFamilies) == std::variant_size_v<Op>);

/** Each alternative's struct name, indexed like Op (for messages and tests). */
inline constexpr const char* kInsnNames[] = {
#define PTXMC_INSN(Name, Family, forms) #Name,
#include "ptx/Instructions.def"
};

/**
 * The family of `op`: generic (ld ... arithmetic, tensormap.*), mbarrier.* (and
 * cp.async.mbarrier.arrive), asynchronous copies (cp{.reduce}.async.bulk.*, cp.async.*), tcgen05.*,
 * and control (branches, setp, mov, elect.sync, nanosleep, exit: they make no event of their
 * own).
 */
inline Family family(const Op& op) {
    return kFamilies[op.index()];
}

/** A decoded instruction; operands and source positions stay in the litmus instruction. */
struct Insn {
    Op op;
    std::vector<litmus::Operand> operands;
    SourceLoc loc;      ///< the opcode's first character
    std::string opcode; ///< as written, for messages

    const litmus::Operand& operand(std::size_t i) const { return operands.at(i); }
    template <class T> const T* as() const { return std::get_if<T>(&op); }
    template <class T> bool is() const { return std::holds_alternative<T>(op); }
    Family family() const { return ptx::family(op); }
};

} // namespace ptxmc::ptx
