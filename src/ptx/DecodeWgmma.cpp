// Decoding of Hopper's warpgroup MMA instructions (PTX ISA {Wgmma}).
#include "ptx/DecodeDetail.hpp"
#include "ptx/Tables.hpp"

#include <regex>

namespace ptxmc::ptx::detail {

namespace {

void requireSyncAligned(Decoder& d) {
    if (!d.q.take("sync") || !d.q.take("aligned"))
        d.fail("'" + d.inst.opcode + "' needs .sync.aligned (" + cite(Sec::Wgmma) + ")");
}

Op decodeWgmmaMma(Decoder& d) {
    WgmmaMma m;
    m.sp = d.q.take("sp");
    requireSyncAligned(d);
    static const std::regex shapeForm("m([0-9]+)n([0-9]+)k([0-9]+)");
    std::smatch match;
    auto shape = d.q.takeIf([](const std::string& p) { return std::regex_match(p, shapeForm); });
    if (!shape) d.fail("wgmma.mma_async needs a shape such as .m64n128k16");
    std::regex_match(*shape, match, shapeForm);
    m.m = std::stoi(match[1]);
    m.n = std::stoi(match[2]);
    m.k = std::stoi(match[3]);
    m.satfinite = d.q.take("satfinite");
    auto isType = [](const std::string& p) {
        return p == "f16" || p == "f32" || p == "s32" || wgmmaType(p) != nullptr;
    };
    auto dtype = d.q.takeIf(isType);
    auto atype = d.q.takeIf(isType);
    auto btype = d.q.takeIf(isType);
    if (!dtype || !atype || !btype)
        d.fail("wgmma.mma_async needs .dtype.atype.btype (" + cite(Sec::WgmmaMmaAsync) + ")");
    m.dtype = *dtype;
    m.atype = *atype;
    m.btype = *btype;
    if (!m.satfinite) m.satfinite = d.q.take("satfinite"); // CUTLASS writes it last
    if (d.q.take("and")) {
        if (!d.q.take("popc")) d.fail(".and needs .popc");
        m.andPopc = true;
    }
    d.q.finish();
    const WgmmaTypeRow* a = wgmmaType(m.atype);
    const WgmmaTypeRow* b = wgmmaType(m.btype);
    if (!a || !b)
        d.fail("'." + m.atype + "." + m.btype + "' is not a wgmma.mma_async .atype.btype");
    bool fp8 = m.atype[0] == 'e' && m.btype[0] == 'e';
    bool int8 = (m.atype == "s8" || m.atype == "u8") && (m.btype == "s8" || m.btype == "u8");
    if (m.atype != m.btype && !fp8 && !int8)
        d.fail(".atype and .btype must be the same but for the FP8 and integer forms (" +
               cite(Sec::WgmmaMmaAsync) + ")");
    if (std::string(a->dtypes).find(m.dtype) == std::string::npos)
        d.fail("." + m.dtype + " is not an accumulator type for ." + m.atype + " (" +
               cite(Sec::WgmmaMmaAsync) + ")");
    // "For an MxNxK sparse wgmma.mma_async.sp operation, the MxK matrix A is packed into MxK/2
    // elements" ({WgmmaMmaAsyncSp}): its K is twice the dense one (.m64nNk32 for .f16).
    int k = a->k * (m.sp ? 2 : 1);
    if (m.m != 64 || m.k != k || m.n < 8 || m.n > 256 || m.n % 8 != 0)
        d.fail("." + *shape + " is not a" + (m.sp ? " sparse" : "") + " shape of ." + m.atype +
               " (m64nNk" + std::to_string(k) + ", N a multiple of 8 up to 256)");
    if (m.sp && m.andPopc)
        d.fail("wgmma.mma_async.sp has no .b1 form (" + cite(Sec::WgmmaMmaAsyncSp) + ")");
    if (m.satfinite && m.dtype != "s32") d.fail(".satfinite is for the integer forms only");
    if (m.andPopc != (m.atype == "b1")) d.fail(".b1 takes .and.popc, and only it");
    return m;
}

} // namespace

Op decodeWgmma(Decoder& d) {
    const auto& p = d.inst.parts;
    if (p.size() < 2) d.fail("incomplete wgmma instruction");
    const std::string& op = p[1];
    if (op == "mma_async") return decodeWgmmaMma(d);
    requireSyncAligned(d);
    d.q.finish();
    if (op == "fence") return WgmmaFence{};
    if (op == "commit_group") return WgmmaCommit{};
    if (op == "wait_group") return WgmmaWait{};
    d.fail("unknown instruction '" + d.inst.opcode + "'");
}

} // namespace ptxmc::ptx::detail
