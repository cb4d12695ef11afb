// Decoding of control flow: bra, Dat3M's goto and compare-and-branch, setp, mov, elect, exit,
// and nanosleep (no event either).
#include "ptx/DecodeDetail.hpp"

namespace ptxmc::ptx::detail {

namespace {

/** One integer type; setp and mov need exactly one (PTX ISA {Setp}, {Mov}). */
Type oneType(Decoder& d, const char* what) {
    std::vector<Type> types = d.takeTypes();
    if (types.size() != 1 || types[0].kind == 'f' || types[0].kind == 'p')
        d.fail(std::string(what) + " needs one integer type (.b32, .s32, .u32, ...)");
    return types[0];
}

Op decodeSetp(Decoder& d) {
    auto cmp = d.takeRow(kCmpOps);
    if (!cmp) d.fail("setp needs a comparison (.eq, .ne, .lt, .le, .gt, .ge, .lo, .ls, .hi, .hs)");
    if (d.q.takeOneOf({"and", "or", "xor"}))
        d.fail("setp with a combining predicate (.and/.or/.xor) is not supported");
    Setp s{*cmp, oneType(d, "setp")};
    bool ordered = *cmp != CmpOp::Eq && *cmp != CmpOp::Ne;
    if (ordered && s.type.kind == 'b')
        d.fail("setp on a .b type compares only .eq or .ne (" + cite(Sec::Setp) + ")");
    bool unsignedOnly =
        *cmp == CmpOp::Lo || *cmp == CmpOp::Ls || *cmp == CmpOp::Hi || *cmp == CmpOp::Hs;
    if (unsignedOnly && s.type.kind != 'u' && s.type.kind != 'b')
        d.fail("setp .lo/.ls/.hi/.hs compare unsigned types (" + cite(Sec::Setp) + ")");
    d.q.finish();
    return s;
}

} // namespace

std::optional<Op> decodeControl(Decoder& d) {
    const std::string& n = d.inst.parts[0];
    if (n == "bra" || n == "goto") {
        Bra b;
        b.gotoSpelling = n == "goto";
        if (!b.gotoSpelling) b.uni = d.q.take("uni");
        d.q.finish();
        return b;
    }
    if (auto cmp = valueOf(kBranchCmps, n)) {
        d.q.finish();
        return CompareBranch{*cmp};
    }
    if (n == "setp") return decodeSetp(d);
    if (n == "mov") {
        Mov m{oneType(d, "mov")};
        d.q.finish();
        return m;
    }
    if (n == "nondet") {
        if (!d.q.take("pred")) d.fail("nondet needs .pred: nondet.pred p (0 or 1, both explored)");
        d.q.finish();
        return Nondet{};
    }
    if (n == "elect") {
        if (!d.q.take("sync")) d.fail("elect needs .sync");
        d.q.finish();
        return Elect{};
    }
    if (n == "nanosleep") {
        std::vector<Type> types = d.takeTypes();
        if (types.size() != 1 || types[0] != Type{'u', 32})
            d.fail("nanosleep needs .u32: nanosleep.u32 t (" + cite(Sec::Nanosleep) + ")");
        d.q.finish();
        return Nanosleep{};
    }
    if (n == "setmaxnreg") {
        auto action = d.q.takeOneOf({"inc", "dec"});
        if (!action) d.fail("setmaxnreg needs .inc or .dec (" + cite(Sec::Setmaxnreg) + ")");
        if (!d.q.take("sync") || !d.q.take("aligned"))
            d.fail("setmaxnreg needs .sync.aligned (" + cite(Sec::Setmaxnreg) + ")");
        std::vector<Type> types = d.takeTypes();
        if (types.size() != 1 || types[0] != Type{'u', 32})
            d.fail("setmaxnreg needs .u32 (" + cite(Sec::Setmaxnreg) + ")");
        d.q.finish();
        return Setmaxnreg{*action == "inc"};
    }
    if (n == "griddepcontrol") {
        auto action = d.q.takeOneOf({"launch_dependents", "wait"});
        if (!action)
            d.fail("griddepcontrol needs .launch_dependents or .wait (" +
                   cite(Sec::Griddepcontrol) + ")");
        d.q.finish();
        return Griddepcontrol{*action == "wait"};
    }
    if (n == "exit" || n == "ret") {
        if (n == "ret") d.q.take("uni");
        d.q.finish();
        return Exit{n == "ret"};
    }
    return std::nullopt;
}

} // namespace ptxmc::ptx::detail
