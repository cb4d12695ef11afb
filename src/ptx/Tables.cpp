// The qualifier tables: adding a PTX qualifier spelling is adding a row here.
#include "ptx/Tables.hpp"

#include <algorithm>

namespace ptxmc::ptx {

const std::array<Row<Sem>, 4> kFenceSems = {{
    {Sem::Sc, "sc"},
    {Sem::AcqRel, "acq_rel"},
    {Sem::Acquire, "acquire"},
    {Sem::Release, "release"},
}};

// fence.{acquire,release}.sync_restrict::SPACE.cluster (PTX ISA 9.4 #...-membar)
const std::array<Row<StateSpace>, 2> kSyncRestricts = {{
    {StateSpace::SharedCta, "sync_restrict::shared::cta"},
    {StateSpace::SharedCluster, "sync_restrict::shared::cluster"},
}};

const std::array<Row<Scope>, 4> kScopes = {{
    {Scope::Cta, "cta"},
    {Scope::Cluster, "cluster"},
    {Scope::Gpu, "gpu"},
    {Scope::Sys, "sys"},
}};

const std::array<Row<Sem>, 6> kMemorySems = {{
    {Sem::Weak, "weak"},
    {Sem::Relaxed, "relaxed"},
    {Sem::Acquire, "acquire"},
    {Sem::Release, "release"},
    {Sem::AcqRel, "acq_rel"},
    {Sem::Volatile, "volatile"},
}};

const std::array<Row<StateSpace>, 4> kSpaces = {{
    {StateSpace::Global, "global"},
    {StateSpace::Shared, "shared"},
    {StateSpace::SharedCta, "shared::cta"},
    {StateSpace::SharedCluster, "shared::cluster"},
}};

// .plus and .minus are Dat3M's spellings of .add and .sub; printing uses the first row.
const std::array<Row<AtomOp>, 13> kAtomOps = {{
    {AtomOp::Add, "add"},
    {AtomOp::And, "and"},
    {AtomOp::Or, "or"},
    {AtomOp::Xor, "xor"},
    {AtomOp::Max, "max"},
    {AtomOp::Min, "min"},
    {AtomOp::Exch, "exch"},
    {AtomOp::Cas, "cas"},
    {AtomOp::Sub, "sub"},
    {AtomOp::Inc, "inc"},
    {AtomOp::Dec, "dec"},
    {AtomOp::Add, "plus"},
    {AtomOp::Sub, "minus"},
}};

// The 16-bit float element types of atom/red and cp.reduce.async.bulk ({Atom} Table 41)
const std::array<Row<HalfType>, 4> kHalfTypes = {{
    {HalfType::F16, "f16"},
    {HalfType::Bf16, "bf16"},
    {HalfType::F16x2, "f16x2"},
    {HalfType::Bf16x2, "bf16x2"},
}};

// A copy's .report_mechanism ({AsyncCopyReportMechanisms} Table 33); unwritten is ::disabled
const std::array<Row<ReportMechanism>, 6> kReportMechanisms = {{
    {ReportMechanism::Disabled, "mbarrier::report::disabled"},
    {ReportMechanism::Per16Fp32, "mbarrier::report::validity::per_16bytes::80000000"},
    {ReportMechanism::Per16Fp16, "mbarrier::report::validity::per_16bytes::8000"},
    {ReportMechanism::Per16Fp8, "mbarrier::report::validity::per_16bytes::80"},
    {ReportMechanism::Per16Fp4, "mbarrier::report::validity::per_16bytes::8"},
    {ReportMechanism::PerElementFF, "mbarrier::report::validity::per_element::ff"},
}};

// The 8-bit float element types of multimem.* ({Multimem}: "Support for types .e5m2, .e5m2x2,
// .e5m2x4, .e4m3, .e4m3x2, .e4m3x4 introduced in PTX ISA version 8.6")
const std::array<Row<Fp8Type>, 6> kFp8Types = {{
    {Fp8Type::E5m2, "e5m2"},
    {Fp8Type::E5m2x2, "e5m2x2"},
    {Fp8Type::E5m2x4, "e5m2x4"},
    {Fp8Type::E4m3, "e4m3"},
    {Fp8Type::E4m3x2, "e4m3x2"},
    {Fp8Type::E4m3x4, "e4m3x4"},
}};

const std::array<Row<CmpOp>, 10> kCmpOps = {{
    {CmpOp::Eq, "eq"},
    {CmpOp::Ne, "ne"},
    {CmpOp::Lt, "lt"},
    {CmpOp::Le, "le"},
    {CmpOp::Gt, "gt"},
    {CmpOp::Ge, "ge"},
    {CmpOp::Lo, "lo"},
    {CmpOp::Ls, "ls"},
    {CmpOp::Hi, "hi"},
    {CmpOp::Hs, "hs"},
}};

const std::array<Row<CmpOp>, 6> kBranchCmps = {{
    {CmpOp::Eq, "beq"},
    {CmpOp::Ne, "bne"},
    {CmpOp::Lt, "blt"},
    {CmpOp::Le, "ble"},
    {CmpOp::Gt, "bgt"},
    {CmpOp::Ge, "bge"},
}};

const std::array<Row<VoteMode>, 4> kVoteModes = {{
    {VoteMode::All, "all"},
    {VoteMode::Any, "any"},
    {VoteMode::Uni, "uni"},
    {VoteMode::Ballot, "ballot"},
}};

const std::array<Row<BarrierRedOp>, 3> kBarrierRedOps = {{
    {BarrierRedOp::Popc, "popc"},
    {BarrierRedOp::And, "and"},
    {BarrierRedOp::Or, "or"},
}};

const std::array<Row<ReduxOp>, 6> kReduxOps = {{
    {ReduxOp::Add, "add"},
    {ReduxOp::Min, "min"},
    {ReduxOp::Max, "max"},
    {ReduxOp::And, "and"},
    {ReduxOp::Or, "or"},
    {ReduxOp::Xor, "xor"},
}};

const std::array<Row<ProxyKind>, 9> kProxies = {{
    {ProxyKind::Alias, "alias"},
    {ProxyKind::Async, "async"},
    {ProxyKind::Surface, "surface"},
    {ProxyKind::Texture, "texture"},
    {ProxyKind::Constant, "constant"},
    {ProxyKind::Tensormap, "tensormap::generic"},
    {ProxyKind::GenericFabric, "generic::fabric"},
    {ProxyKind::FabricGeneric, "fabric::generic"},
    {ProxyKind::FabricFabric, "fabric::fabric"},
}};

// The common shape (one 32-bit row per lane) first: messages list the shapes in this order.
// .16x32bx2 (shape2/shape4 of the 9.4 text): "two accesses into Tensor Memory of the shape
// .16x32b. The base address of the first access is specified by taddr and the base address of
// the second access is specified by taddr+immHalfSplitoff".
const std::array<LdStShapeRow, 5> kLdStShapes = {{
    {LdStShape::Lanes32Bits32, "32x32b", 1, 1},
    {LdStShape::Lanes16Bits64, "16x64b", 1, 2},
    {LdStShape::Lanes16Bits128, "16x128b", 2, 4},
    {LdStShape::Lanes16Bits256, "16x256b", 4, 8},
    {LdStShape::Lanes16Bits32Twice, "16x32bx2", 1, 1, true},
}};

const std::array<int, 8> kLdStRepeats = {1, 2, 4, 8, 16, 32, 64, 128};

const std::array<Row<Pack>, 2> kPacks = {{
    {Pack::Pack16b, "pack::16b"},
    {Pack::Unpack16b, "unpack::16b"},
}};

const std::array<CpShapeRow, 5> kCpShapes = {{
    {CpShape::Rows128Bits256, "128x256b", CpWarps::None},
    {CpShape::Rows4Bits256, "4x256b", CpWarps::None},
    {CpShape::Rows128Bits128, "128x128b", CpWarps::None},
    {CpShape::Rows64Bits128, "64x128b", CpWarps::X2_02_13},
    {CpShape::Rows32Bits128, "32x128b", CpWarps::X4},
}};

const std::array<Row<CpWarps>, 3> kCpWarps = {{
    {CpWarps::X2_02_13, "warpx2::02_13"},
    {CpWarps::X2_01_23, "warpx2::01_23"},
    {CpWarps::X4, "warpx4"},
}};

const std::array<std::string_view, 3> kCpDecompress = {"b8x16", "b6x16_p32", "b4x16_p64"};

// .kind::ti16 is new in 9.4 ("Qualifier .kind::ti16 introduced in PTX ISA version 9.4").
const std::array<std::string_view, 8> kMmaKinds = {"f16",  "tf32",     "f8f6f4", "i8",
                                                   "ti16", "mxf8f6f4", "mxf4",   "mxf4nvf4"};

// tcgen05.mma collector buffers (PTX ISA {Tcgen05Mma}, {Tcgen05MmaWs}): "::op = { ::fill, ::use,
// ::lastuse, ::discard* }"; ::a and ::b without .ws (::b is 9.4), ::b0 ... ::b3 with .ws.
const std::array<Row<CollectorOp>, 4> kCollectorOps = {{
    {CollectorOp::Fill, "fill"},
    {CollectorOp::Use, "use"},
    {CollectorOp::LastUse, "lastuse"},
    {CollectorOp::Discard, "discard"},
}};
const std::array<std::string_view, 6> kCollectorBuffers = {"a", "b", "b0", "b1", "b2", "b3"};

// wgmma.mma_async element types (PTX ISA {WgmmaMmaAsync}): K of the shape, accumulator types, and
// how many immediates follow scale-d with A in shared memory (with A in registers: one fewer
// for .f16/.bf16, whose imm-trans-a goes).
const std::array<WgmmaTypeRow, 8> kWgmmaTypes = {{
    {"f16", 16, "f16 f32", 4},
    {"bf16", 16, "f32", 4},
    {"tf32", 8, "f32", 2},
    {"e4m3", 32, "f16 f32", 2},
    {"e5m2", 32, "f16 f32", 2},
    {"s8", 32, "s32", 0},
    {"u8", 32, "s32", 0},
    {"b1", 256, "s32", 0},
}};

const WgmmaTypeRow* wgmmaType(std::string_view name) {
    for (const auto& r : kWgmmaTypes)
        if (r.name == name) return &r;
    return nullptr;
}

std::size_t WgmmaMma::immediates(bool aShared) const {
    const WgmmaTypeRow* t = wgmmaType(atype);
    if (!t) return 0;
    bool transposable = atype == "f16" || atype == "bf16";
    return t->immediates - (transposable && !aShared ? 1 : 0);
}

const LdStShapeRow& ldStShape(LdStShape s) {
    for (const auto& r : kLdStShapes)
        if (r.shape == s) return r;
    return kLdStShapes.front();
}

const LdStShapeRow* ldStShapeNamed(std::string_view name) {
    for (const auto& r : kLdStShapes)
        if (r.name == name) return &r;
    return nullptr;
}

std::optional<int> ldStRepeatNamed(std::string_view name) {
    for (int n : kLdStRepeats)
        if (name.size() > 1 && name[0] == 'x' && name.substr(1) == std::to_string(n)) return n;
    return std::nullopt;
}

const CpShapeRow& cpShape(CpShape s) {
    for (const auto& r : kCpShapes)
        if (r.shape == s) return r;
    return kCpShapes.front();
}

std::string_view semName(Sem s) {
    if (s == Sem::Sc) return "sc";
    return nameOf(kMemorySems, s);
}

std::string_view scopeName(Scope s) {
    return nameOf(kScopes, s);
}

std::size_t LdStFormat::registers() const {
    std::size_t regs = static_cast<std::size_t>(ldStShape(shape).registersPerRepeat * repeat);
    return pack == Pack::None ? regs : std::max<std::size_t>(1, regs / 2);
}

// ldmatrix / stmatrix (PTX ISA 9.4 #warp-level-matrix-instructions-ldmatrix, -stmatrix)
const std::array<Row<MatrixShape>, 4> kMatrixShapes = {{
    {MatrixShape::M8n8, "m8n8"},
    {MatrixShape::M16n16, "m16n16"},
    {MatrixShape::M8n16, "m8n16"},
    {MatrixShape::M16n8, "m16n8"},
}};

// the type as written: one qualifier, or .dst_fmt.src_fmt / .dtype.ctype (two)
const std::array<Row<MatrixType>, 5> kMatrixTypes = {{
    {MatrixType::B16, "b16"},
    {MatrixType::B8, "b8"},
    {MatrixType::B8x16B6x16P32, "b8x16.b6x16_p32"},
    {MatrixType::B8x16B4x16P64, "b8x16.b4x16_p64"},
    {MatrixType::S8S4, "s8.s4"},
}};

const std::array<std::string_view, 4> kMmaExtraTmemForms = {"sp", "ws", "block_scale",
                                                            "decompress::lut::b"};

// The hints ptxmc kernel drops from a module's instructions: .L2::cache_hint (its operand
// goes too), prefetch sizes, eviction priorities, .nc and the cache operators of ld/st
// (9.7.9.1, #cache-operators). cp.async's .ca/.cg are no hints: they choose its copy sizes
// (9.7.10.28.3.1), and the decoder reads them.
const std::array<AccessHint, 20> kAccessHints = {{
    {"L2::cache_hint", false},
    {"L2::64B", false},
    {"L2::128B", false},
    {"L2::256B", false},
    {"L1::evict_normal", false},
    {"L1::evict_unchanged", false},
    {"L1::evict_first", false},
    {"L1::evict_last", false},
    {"L1::no_allocate", false},
    {"L2::evict_first", false},
    {"L2::evict_last", false},
    {"L2::evict_normal", false},
    {"nc", false},
    {"ca", true},
    {"cg", true},
    {"cs", true},
    {"lu", true},
    {"cv", true},
    {"wb", true},
    {"wt", true},
}};

bool isAccessHint(ModuleOp op, std::string_view q) {
    for (const AccessHint& h : kAccessHints)
        if (h.spelling == q) return !(h.cacheOperator && isCpOp(op));
    return false;
}

} // namespace ptxmc::ptx
