// Decoding of the multimem.* instructions (PTX
// ISA 9.7.10.13, 9.7.10.15, 9.7.10.28.4.4-5, 9.7.15.8).
#include "ptx/DecodeDetail.hpp"

namespace ptxmc::ptx::detail {

namespace {

bool isType(const std::vector<Type>& types, char kind, int bits) {
    return types.size() == 1 && types[0] == Type{kind, bits};
}

/**
 * One integer element of the table of valid .op and base type combinations ({Multimem#}):
 * ".add | .u32, .u64, .s32", ".and, .or, .xor | .b32, .b64", ".min, .max | .u32, .s32, .u64,
 * .s64". 64-bit elements are 64-bit words; the floating-point ones are not computed here.
 */
void checkIntegerElement(Decoder& d, const Multimem& m, const std::string& where) {
    if (m.types.size() != 1) d.fail("'" + d.inst.opcode + "' needs one element type" + where);
    const Type t = m.types[0];
    if (t.kind == 'f' || (t.bits != 32 && t.bits != 64))
        d.fail("'" + d.inst.opcode +
               "': ptxmc reduces 32- and 64-bit integer elements (.b32, .u32, .s32, .b64, .u64, "
               ".s64) here" +
               where);
    const bool bitwise = m.op == AtomOp::And || m.op == AtomOp::Or || m.op == AtomOp::Xor;
    if (bitwise != (t.kind == 'b'))
        d.fail("'" + d.inst.opcode + "': ." + std::string(nameOf(kAtomOps, m.op)) + " takes " +
               (bitwise ? ".b32 or .b64" : ".u32, .s32, .u64 or .s64") + where);
    if (m.op == AtomOp::Add && t == Type{'s', 64})
        d.fail("'" + d.inst.opcode + "': .add takes .u32, .u64 or .s32 (no .s64)" + where);
}

/**
 * A value stored whole: an integer of 32 or 64 bits (9.7.10.15's integer .type is .b32, .b64,
 * .u32, .u64, .s32, .s64), .f32 or .f64 (their bits); multimem.st.async also takes the 8- and
 * 16-bit integer types (9.7.10.13's .type), multimem.st does not.
 */
void checkStoredElement(Decoder& d, const Multimem& m, const std::string& where) {
    if (m.types.size() != 1) d.fail("'" + d.inst.opcode + "' needs one element type" + where);
    const Type t = m.types[0];
    const bool narrow = t.kind != 'f' && (t.bits == 8 || t.bits == 16);
    if (narrow && m.kind == MultimemKind::St)
        d.fail("'" + d.inst.opcode + "': multimem.st stores .b32, .u32, .s32 or wider integers" +
               where);
    if (!(t.bits == 32 || t.bits == 64 || narrow))
        d.fail("'" + d.inst.opcode +
               "': ptxmc stores 32- and 64-bit integers, .f32 and .f64 values here" + where);
}

/**
 * The floating-point forms ({Multimem}): ".redop = { .add }" and ".redtype = { .f16, .f16x2,
 * .bf16, .bf16x2, .f32, .f64 }"; ld_reduce's ".op = { .min, .max, .add }" with the table of
 * valid combinations (.min/.max on the 16- and 8-bit types only); "the size of the specified
 * type along with .vec must equal either 32-bits or 64-bits or 128-bits ... Type .f64 cannot be
 * used with .vec qualifier"; .acc::f32 goes with the 16-bit types, .acc::f16 with the 8-bit
 * ones. Binary64 and 8-bit float arithmetic are refused: ptxmc computes neither.
 */
void checkFloatElement(Decoder& d, const Multimem& m, const std::string& where) {
    const std::string name = "'" + d.inst.opcode + "'";
    if (m.types.size() > 1 ||
        (!m.types.empty() && (m.half != HalfType::None || m.fp8 != Fp8Type::None)) ||
        (m.half != HalfType::None && m.fp8 != Fp8Type::None))
        d.fail(name + " needs one element type" + where);
    if (!m.types.empty() && m.types[0].bits != 32 && m.types[0].bits != 64)
        d.fail(name +
               ": the floating-point .type is .f16, .f16x2, .bf16, .bf16x2, .f32, .f64 or "
               "an 8-bit .e5m2/.e4m3 type" +
               where);
    const int bits = m.elementBits() * m.vec;
    const bool f64 = m.types.size() == 1 && m.types[0].bits == 64;
    if (f64 && m.vec != 1)
        d.fail(name + ": \"Type .f64 cannot be used with .vec qualifier\"" + where);
    if (bits != 32 && bits != 64 && bits != 128)
        d.fail(name +
               ": \"the size of the specified type along with .vec must equal either "
               "32-bits or 64-bits or 128-bits\" (here " +
               std::to_string(bits) + ")" + where);
    const bool sixteen = m.half != HalfType::None;
    const bool eight = m.fp8 != Fp8Type::None;
    if (m.accF32 && !sixteen)
        d.fail(name + ": .acc::f32 goes with .f16, .f16x2, .bf16 or .bf16x2" + where);
    if (m.accF16 && !eight)
        d.fail(name + ": .acc::f16 goes with the .e5m2 and .e4m3 types" + where);
    if (m.kind == MultimemKind::St) return;
    if (m.kind == MultimemKind::Red && m.op != AtomOp::Add)
        d.fail(name + ": the floating-point multimem.red's .redop is .add" + where);
    if (m.kind == MultimemKind::Red && eight)
        d.fail(name + ": multimem.red's .redtype is .f16, .f16x2, .bf16, .bf16x2, .f32 or .f64" +
               where);
    const bool minMax = m.op == AtomOp::Min || m.op == AtomOp::Max;
    if (!minMax && m.op != AtomOp::Add)
        d.fail(name + ": the floating-point multimem.ld_reduce's .op is .min, .max or .add" +
               where);
    if (minMax && !sixteen && !eight)
        d.fail(name +
               ": .min and .max take .f16, .f16x2, .bf16, .bf16x2 and the 8-bit types (the "
               "table of valid combinations; not .f32 or .f64)" +
               where);
    if (f64)
        d.fail(name + ": .add on .f64 is not supported: ptxmc computes no binary64 arithmetic" +
               where);
    if (eight)
        d.fail(name + ": ." + std::string(nameOf(kAtomOps, m.op)) +
               " on 8-bit floats (.e5m2, .e4m3) is not supported: ptxmc computes no 8-bit "
               "floating-point arithmetic (multimem.st moves them)" +
               where);
}

/** {.sem}{.scope} of ld_reduce (.ldsem), st (.stsem) and red (.redsem). */
void takeSemScope(Decoder& d, Multimem& m, Sem strongSem, const std::string& where) {
    if (auto s = d.q.takeOneOf({"weak", "relaxed", "acquire", "release"})) {
        m.sem = *s == "weak"      ? Sem::Weak
                : *s == "relaxed" ? Sem::Relaxed
                : *s == "acquire" ? Sem::Acquire
                                  : Sem::Release;
        if (m.sem != Sem::Weak && m.sem != Sem::Relaxed && m.sem != strongSem)
            d.fail("'" + d.inst.opcode + "' cannot be ." + *s + where);
    }
    m.scope = d.takeScope({Scope::Cta, Scope::Cluster, Scope::Gpu, Scope::Sys});
}

Multimem decodeSync(Decoder& d, MultimemKind kind) {
    Multimem m;
    m.kind = kind;
    const std::string where = " (" + cite(Sec::Multimem) + ")";
    const bool red = kind == MultimemKind::Red;
    if (kind == MultimemKind::LdReduce)
        takeSemScope(d, m, Sem::Acquire, where);
    else
        takeSemScope(d, m, Sem::Release, where);
    if (red && m.sem == Sem::Weak) d.fail("multimem.red is .relaxed or .release" + where);
    if (m.sem == Sem::Weak && m.scope != Scope::None) d.fail("a .weak access has no scope" + where);
    // "If the .scope qualifier is not specified for multimem.red then .sys scope is assumed by
    // default"; the text gives ld_reduce and st no default scope
    if (!red && (m.sem == Sem::Relaxed || m.sem == Sem::Acquire || m.sem == Sem::Release) &&
        m.scope == Scope::None)
        d.fail("'" + d.inst.opcode +
               "' needs a scope: the text gives .relaxed, .acquire and .release no default "
               "scope here (only multimem.red's, .sys)" +
               where);
    if (!red && m.sem == Sem::None && m.scope != Scope::None)
        d.fail("'" + d.inst.opcode + "': a scope goes with .relaxed, .acquire or .release" + where);
    if (d.q.take("global")) m.space = StateSpace::Global;
    if (kind != MultimemKind::St) {
        auto op = d.takeRow(kAtomOps);
        const bool ok = op && (*op == AtomOp::Add || *op == AtomOp::Min || *op == AtomOp::Max ||
                               *op == AtomOp::And || *op == AtomOp::Or || *op == AtomOp::Xor);
        if (!ok)
            d.fail("'" + d.inst.opcode + "' needs .min, .max, .add, .and, .or or .xor" + where);
        m.op = *op;
    }
    if (kind == MultimemKind::LdReduce) {
        m.accF32 = d.q.take("acc::f32");
        m.accF16 = d.q.take("acc::f16");
    }
    if (auto v = d.q.takeOneOf({"v2", "v4", "v8"})) m.vec = (*v)[1] - '0';
    m.half = d.takeRow(kHalfTypes).value_or(HalfType::None);
    m.fp8 = d.takeRow(kFp8Types).value_or(Fp8Type::None);
    m.types = d.takeTypes();
    d.q.finish();
    if (m.floating())
        checkFloatElement(d, m, where);
    else if (m.vec != 1 || m.accF32 || m.accF16)
        d.fail("'" + d.inst.opcode + "': .vec and .acc_prec go with the floating-point types" +
               where);
    else if (kind == MultimemKind::St)
        checkStoredElement(d, m, where);
    else
        checkIntegerElement(d, m, where);
    return m;
}

/** multimem.st.async and multimem.red.async: .release, .gpu or .sys, both mandatory. */
Multimem decodeAsync(Decoder& d, MultimemKind kind) {
    Multimem m;
    m.kind = kind;
    const bool red = kind == MultimemKind::RedAsync;
    const std::string name = red ? "multimem.red.async" : "multimem.st.async";
    const std::string where = " (" + cite(red ? Sec::MultimemRedAsync : Sec::MultimemStAsync) + ")";
    if (!d.q.take("release")) d.fail(name + " needs .release, its mandatory .sem" + where);
    m.sem = Sem::Release;
    m.scope = d.takeScope({Scope::Gpu, Scope::Sys});
    if (m.scope == Scope::None) d.fail(name + " needs scope .gpu or .sys" + where);
    if (d.q.take("global")) m.space = StateSpace::Global;
    if (red) {
        if (!d.q.take("add")) d.fail("multimem.red.async's .op is .add" + where);
        m.op = AtomOp::Add;
    }
    m.types = d.takeTypes();
    d.q.finish();
    if (!red) {
        checkStoredElement(d, m, where);
        return m;
    }
    if (!isType(m.types, 'u', 32) && !isType(m.types, 's', 32) && !isType(m.types, 'u', 64))
        d.fail("multimem.red.async's .type is .u32, .s32 or .u64" + where);
    return m;
}

} // namespace

Op decodeMultimem(Decoder& d) {
    const auto& p = d.inst.parts;
    auto at = [&](std::size_t i, const char* s) { return p.size() > i && p[i] == s; };
    if (at(1, "cp")) {
        if (at(2, "async") && at(3, "bulk")) return decodeMultimemCopy(d, false);
        if (at(2, "reduce") && at(3, "async") && at(4, "bulk")) return decodeMultimemCopy(d, true);
    } else if (at(1, "ld_reduce")) {
        return decodeSync(d, MultimemKind::LdReduce);
    } else if (at(1, "st")) {
        return d.q.take("async") ? decodeAsync(d, MultimemKind::StAsync)
                                 : decodeSync(d, MultimemKind::St);
    } else if (at(1, "red")) {
        return d.q.take("async") ? decodeAsync(d, MultimemKind::RedAsync)
                                 : decodeSync(d, MultimemKind::Red);
    }
    d.fail("unknown instruction '" + d.inst.opcode + "'");
}

} // namespace ptxmc::ptx::detail
