// Decoding of tcgen05 instructions (PTX ISA {Tcgen05}).
#include "ptx/DecodeDetail.hpp"

#include <algorithm>

namespace ptxmc::ptx::detail {

namespace {

int takeCtaGroup(Decoder& d) {
    auto g = d.q.takePrefixed("cta_group::");
    if (!g) d.fail("'" + d.inst.opcode + "' needs .cta_group::1 or ::2");
    if (*g != "1" && *g != "2")
        d.fail("cta_group::" + *g +
               " does not exist: only cta_group::1 and "
               "cta_group::2 (" +
               cite(Sec::Tcgen05IssueGranularity) + ")");
    int group = *g == "1" ? 1 : 2;
    if (d.onCtaGroup) d.onCtaGroup(group);
    return group;
}

void requireSyncAligned(Decoder& d, const std::string& what) {
    if (!d.q.take("sync") || !d.q.take("aligned")) d.fail(what + " needs .sync.aligned");
}

/** `.block_scale{.scale_vectorsize}` (PTX ISA {Tcgen05Mma}): only the kinds with block scaling
 *  take it, and they need it ("Floating-point type with block scaling: .kind = { .kind::mxf8f6f4,
 *  .kind::mxf4, .kind::mxf4nvf4 }"). */
void takeBlockScale(Decoder& d, Tcgen05Mma& m) {
    m.blockScale = d.q.take("block_scale");
    if (auto v = d.q.takeOneOf(
            {"scale_vec::1X", "scale_vec::2X", "scale_vec::4X", "block16", "block32"}))
        m.scaleVec = *v;
    bool mx = m.kind == "mxf8f6f4" || m.kind == "mxf4" || m.kind == "mxf4nvf4";
    if (mx != m.blockScale)
        d.fail(".kind::mxf8f6f4, .kind::mxf4 and .kind::mxf4nvf4 take .block_scale, and only "
               "they (" +
               cite(Sec::Tcgen05Mma) + ")");
    if (!m.scaleVec.empty() && !m.blockScale) d.fail("." + m.scaleVec + " needs .block_scale");
    if (m.kind == "mxf4nvf4" && m.scaleVec.empty())
        d.fail("\"For .kind::mxf4nvf4, the qualifier .scale_vectorsize must be explicitly "
               "specified\" (" +
               cite(Sec::Tcgen05Mma) + ")");
}

/** `.decompress::lut::b` (PTX ISA 9.4, {Tcgen05Mma}): .kind::f8f6f4, or .kind::mxf8f6f4 with
 *  .block_scale and no .scale_vectorsize but .block32; not with .sp or .ws. */
void checkLut(Decoder& d, const Tcgen05Mma& m) {
    if (!m.lutB) return;
    bool plain = m.kind == "f8f6f4" && !m.blockScale;
    bool scaled = m.kind == "mxf8f6f4" && (m.scaleVec.empty() || m.scaleVec == "block32");
    if ((!plain && !scaled) || m.sp || m.ws)
        d.fail(".decompress::lut::b takes .kind::f8f6f4, or .kind::mxf8f6f4.block_scale with "
               ".block32, and no .sp or .ws (" +
               cite(Sec::Tcgen05Mma) + ")");
}

/** One `.collector::BUFFER::op` of the buffers `buffers` (PTX ISA {Tcgen05Mma}, {Tcgen05MmaWs}). */
std::optional<Collector> takeCollector(Decoder& d,
                                       std::initializer_list<std::string_view> buffers) {
    for (std::string_view b : buffers) {
        auto rest = d.q.takePrefixed("collector::" + std::string(b) + "::");
        if (!rest) continue;
        auto op = valueOf(kCollectorOps, *rest);
        if (!op)
            d.fail("collector::" + std::string(b) + "::" + *rest +
                   " is no collector operation "
                   "(fill, use, lastuse, discard)");
        return Collector{std::string(b), *op};
    }
    return std::nullopt;
}

/** The collector qualifiers and `.ashift` (PTX ISA {Tcgen05Mma#}, {Tcgen05MmaWs#}): without .ws,
 *  "::buffer_a = { ::a }" and (9.4) "::buffer_b = { ::b }"; with .ws, "Collector buffer is
 *  applicable on matrix B", "::buffer = { ::b0, ::b1, ::b2, ::b3 }", and no .ashift. */
void takeCollectors(Decoder& d, Tcgen05Mma& m) {
    m.ashift = d.q.take("ashift");
    m.collectorA = takeCollector(d, {"a"});
    if (m.ws)
        m.collectorB = takeCollector(d, {"b0", "b1", "b2", "b3"});
    else
        m.collectorB = takeCollector(d, {"b"});
    auto cite3 = " (" + cite(Sec::Tcgen05Mma) + ", " + cite(Sec::Tcgen05MmaWs) + ")";
    if (m.ws && (m.ashift || m.collectorA))
        d.fail("tcgen05.mma.ws takes no .ashift and no .collector::a: its collector buffers are "
               "B's, ::b0 to ::b3" +
               cite3);
    if (!m.ws && m.collectorB && m.kind == "i8")
        d.fail(".kind::i8 takes no .collector::b (its forms name only .collector::a)" + cite3);
    bool aReads = m.collectorA &&
                  (m.collectorA->op == CollectorOp::Use || m.collectorA->op == CollectorOp::Fill);
    if (m.ashift && aReads)
        d.fail("\"It is illegal to specify either of .collector::a::use or .collector::a::fill "
               "along with .ashift\" (" +
               cite(Sec::Tcgen05Mma) + ")");
}

Op decodeTcgen05Mma(Decoder& d) {
    Tcgen05Mma m;
    m.ws = d.q.take("ws");
    m.sp = d.q.take("sp");
    m.ctaGroup = takeCtaGroup(d);
    auto kind = d.q.takePrefixed("kind::");
    if (!kind) d.fail("tcgen05.mma needs .kind::<kind>");
    m.kind = *kind;
    takeBlockScale(d, m);
    m.lutB = d.q.take("decompress::lut::b");
    checkLut(d, m);
    takeCollectors(d, m);
    if (m.ws && (m.ctaGroup != 1 || m.blockScale))
        d.fail("tcgen05.mma.ws takes .cta_group::1 and no .block_scale (" +
               cite(Sec::Tcgen05MmaWs) + ")");
    // .ws's optional operand after enable-input-d: "The optional operand zero-column-mask-desc
    // is a 64-bit register" ({Tcgen05MmaWs}); the lowering says what it reads.
    m.zeroColumnMask = m.ws && d.inst.operands.size() == m.operandCount() + 1;
    d.q.finish();
    return m;
}

Op decodeCp(Decoder& d) {
    Tcgen05Cp c;
    c.ctaGroup = takeCtaGroup(d);
    auto shape = d.q.takeIf([](const std::string& p) {
        return std::any_of(kCpShapes.begin(), kCpShapes.end(),
                           [&](const CpShapeRow& r) { return r.name == p; });
    });
    if (!shape) d.fail("tcgen05.cp needs a shape (" + shapeList(kCpShapes) + ")");
    for (const auto& r : kCpShapes)
        if (r.name == *shape) c.shape = r.shape;
    auto x2 = d.q.takeOneOf({"warpx2::02_13", "warpx2::01_23"});
    bool x4 = d.q.take("warpx4");
    c.warps = x2 ? *valueOf(kCpWarps, *x2) : x4 ? CpWarps::X4 : CpWarps::None;
    CpWarps needs = cpShape(c.shape).needs;
    if (needs == CpWarps::X2_02_13 && !x2) d.fail(".64x128b needs .warpx2::02_13 or ::01_23");
    if (needs == CpWarps::X4 && !x4) d.fail(".32x128b needs .warpx4");
    for (std::string_view format : kCpDecompress)
        if (auto rest = d.q.takePrefixed(std::string(format)))
            c.decompress.push_back(std::string(format) + *rest);
    d.q.finish();
    return c;
}

Op decodeShift(Decoder& d) {
    Tcgen05Shift s{takeCtaGroup(d)};
    if (!d.q.take("down")) d.fail("tcgen05.shift needs .down");
    d.q.finish();
    return s;
}

/** Shape, repeat count and packing of tcgen05.ld/st (PTX ISA #tcgen05-instructions-tcgen05-ld). */
LdStFormat takeLdStFormat(Decoder& d, bool b32 = true) {
    requireSyncAligned(d, "'" + d.inst.opcode + "'");
    auto shape = d.q.takeIf([](const std::string& p) { return ldStShapeNamed(p) != nullptr; });
    if (!shape) d.fail("missing shape (" + shapeList(kLdStShapes) + ")");
    LdStFormat f;
    f.shape = ldStShapeNamed(*shape)->shape;
    auto num = d.q.takeIf([](const std::string& p) { return p.size() > 1 && p[0] == 'x'; });
    auto repeat = num ? ldStRepeatNamed(*num) : std::nullopt;
    if (!repeat) d.fail("missing or bad repeat count (.x1, .x2, .x4, ... .x128)");
    f.repeat = *repeat;
    f.pack = d.takeRow(kPacks).value_or(Pack::None);
    if (b32 && !d.q.take("b32")) d.fail("'" + d.inst.opcode + "' needs .b32");
    return f;
}

LdStFormat decodeLdSt(Decoder& d, const char* name) {
    if (d.q.takePrefixed("cta_group::")) d.fail(std::string(name) + " has no .cta_group");
    LdStFormat f = takeLdStFormat(d);
    d.q.finish();
    return f;
}

/**
 * tcgen05.ld{.red}.spcompress.sync.aligned.32x32b.num.{min,max}.sp::2:4{.abs}{.NaN}.f32.b2
 * (9.4, sm_107a): the .32x32b shape, .x4 or more, no .pack; .NaN with .red only.
 */
Op decodeLdSpcompress(Decoder& d, bool red) {
    const std::string where = " (" + cite(Sec::Tcgen05Ld) + ")";
    if (d.q.takePrefixed("cta_group::")) d.fail("tcgen05.ld has no .cta_group" + where);
    Tcgen05Ld ld;
    ld.format = takeLdStFormat(d, false);
    if (ld.format.shape != LdStShape::Lanes32Bits32 || ld.format.pack != Pack::None ||
        ld.format.repeat < 4)
        d.fail("tcgen05.ld.spcompress takes shape .32x32b, .x4 or more and no .pack" + where);
    LdSpcompress sp;
    auto op = d.q.takeOneOf({"min", "max"});
    if (!op) d.fail("tcgen05.ld.spcompress needs .min or .max" + where);
    sp.max = *op == "max";
    if (!d.q.take("sp::2:4")) d.fail("tcgen05.ld.spcompress needs .sp::2:4" + where);
    sp.abs = d.q.take("abs");
    sp.nan = d.q.take("NaN");
    if (sp.nan && !red) d.fail("tcgen05.ld.spcompress's .NaN goes with .red" + where);
    if (!d.q.take("f32") || !d.q.take("b2")) d.fail("tcgen05.ld.spcompress needs .f32.b2" + where);
    d.q.finish();
    if (red) ld.red = LdRed{sp.max, "f32", sp.abs, sp.nan};
    ld.spcompress = sp;
    return ld;
}

/** tcgen05.ld, or tcgen05.ld.red.sync.aligned.32x32b.num.redOp.type (PTX ISA {Tcgen05Ld}). */
Op decodeLd(Decoder& d) {
    const bool reduces = d.q.take("red");
    if (d.q.take("spcompress")) return decodeLdSpcompress(d, reduces);
    if (!reduces) return Tcgen05Ld{decodeLdSt(d, "tcgen05.ld")};
    if (d.q.takePrefixed("cta_group::")) d.fail("tcgen05.ld has no .cta_group");
    Tcgen05Ld ld;
    ld.format = takeLdStFormat(d, false);
    const bool shape3or4 = ld.format.shape == LdStShape::Lanes32Bits32 ||
                           ld.format.shape == LdStShape::Lanes16Bits32Twice;
    if (!shape3or4 || ld.format.pack != Pack::None)
        d.fail("tcgen05.ld.red takes shape .32x32b or .16x32bx2 and no .pack");
    if (ld.format.repeat < 2) d.fail("tcgen05.ld.red needs .num of at least .x2");
    LdRed red;
    auto op = d.q.takeOneOf({"min", "max"});
    if (!op) d.fail("tcgen05.ld.red needs .min or .max");
    red.max = *op == "max";
    red.abs = d.q.take("abs");
    red.nan = d.q.take("NaN");
    auto type = d.q.takeOneOf({"u32", "s32", "f32"});
    if (!type) d.fail("tcgen05.ld.red needs .u32, .s32 or .f32");
    red.type = *type;
    if ((red.abs || red.nan) && red.type != "f32")
        d.fail("tcgen05.ld.red's .abs and .NaN go with .f32 (" + cite(Sec::Tcgen05Ld) + ")");
    ld.red = red;
    d.q.finish();
    return ld;
}

Op decodeTcgen05Wait(Decoder& d, bool ld) {
    if (d.q.takePrefixed("cta_group::"))
        d.fail("tcgen05.wait has no .cta_group (" + cite(Sec::Tcgen05Wait) + ")");
    requireSyncAligned(d, "tcgen05.wait");
    d.q.finish();
    return Tcgen05Wait{ld};
}

Op decodeCommit(Decoder& d) {
    Tcgen05Commit c;
    c.ctaGroup = takeCtaGroup(d);
    if (!d.q.take("mbarrier::arrive::one"))
        d.fail("tcgen05.commit needs .mbarrier::arrive::one (" + cite(Sec::Tcgen05Commit) + ")");
    if (auto s = d.q.takeOneOf({"shared::cluster", "shared::cta", "shared"}))
        c.space = *valueOf(kSpaces, *s);
    if (auto m = d.q.takeOneOf(
            {"multicast::cluster", "multicast::cluster::16b", "multicast::cluster::32b"})) {
        c.multicast = true;
        if (*m != "multicast::cluster") c.multicastBits = *m == "multicast::cluster::32b" ? 32 : 16;
    }
    c.readMmaA = d.q.take("sync_restrict::shared::read::mma::a");
    if (!d.q.take("b64")) d.fail("tcgen05.commit needs .b64");
    d.q.finish();
    return c;
}

Op decodeAlloc(Decoder& d, const std::string& op) {
    int group = takeCtaGroup(d);
    requireSyncAligned(d, "'" + d.inst.opcode + "'");
    if (op == "relinquish_alloc_permit") {
        d.q.finish();
        return Tcgen05Relinquish{group};
    }
    Tcgen05Alloc a;
    a.dealloc = op == "dealloc";
    a.ctaGroup = group;
    a.exclusive = d.q.take("exclusive");
    if (!a.dealloc) a.sharedCta = d.q.take("shared::cta");
    if (!d.q.take("b32")) d.fail("'" + d.inst.opcode + "' needs .b32");
    d.q.finish();
    return a;
}

} // namespace

Op decodeTcgen05(Decoder& d) {
    const auto& p = d.inst.parts;
    if (p.size() < 2) d.fail("incomplete tcgen05 instruction");
    const std::string& op = p[1];
    if (op == "mma") return decodeTcgen05Mma(d);
    if (op == "cp") return decodeCp(d);
    if (op == "shift") return decodeShift(d);
    if (op == "ld") return decodeLd(d);
    if (op == "st") return Tcgen05St{decodeLdSt(d, "tcgen05.st")};
    if (op == "wait::ld" || op == "wait::st") return decodeTcgen05Wait(d, op == "wait::ld");
    if (op == "commit") return decodeCommit(d);
    if (op == "fence::before_thread_sync" || op == "fence::after_thread_sync") {
        d.q.finish();
        return Tcgen05Fence{op == "fence::before_thread_sync"};
    }
    if (op == "alloc" || op == "dealloc" || op == "relinquish_alloc_permit")
        return decodeAlloc(d, op);
    d.fail("unknown instruction '" + d.inst.opcode + "'");
}

} // namespace ptxmc::ptx::detail
