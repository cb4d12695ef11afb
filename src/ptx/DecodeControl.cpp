// Decoding of control flow: bra, Dat3M's goto and compare-and-branch, setp, mov, elect, the
// warp collectives (vote, match, activemask, redux), exit, and nanosleep (no event either).
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

/** The one type `t` an instruction must carry, else `why`. */
void needType(Decoder& d, Type t, const std::string& why) {
    std::vector<Type> types = d.takeTypes();
    if (types.size() != 1 || types[0] != t) d.fail(why);
}

/** vote{.sync}.mode.pred / vote{.sync}.ballot.b32 ({Vote}, {VoteSync}). */
Op decodeVote(Decoder& d) {
    Vote v;
    v.sync = d.q.take("sync");
    const std::string where = " (" + cite(v.sync ? Sec::VoteSync : Sec::Vote) + ")";
    auto mode = d.takeRow(kVoteModes);
    if (!mode) d.fail("vote needs a mode: .all, .any, .uni (.pred) or .ballot (.b32)" + where);
    v.mode = *mode;
    if (v.mode == VoteMode::Ballot)
        needType(d, Type{'b', 32}, "vote.ballot needs .b32" + where);
    else
        needType(d, Type{'p', 0}, "vote.all/.any/.uni need .pred" + where);
    d.q.finish();
    return v;
}

/** match.{any,all}.sync.{b32,b64} ({MatchSync}). */
Op decodeMatch(Decoder& d) {
    const std::string where = " (" + cite(Sec::MatchSync) + ")";
    auto mode = d.q.takeOneOf({"any", "all"});
    if (!mode) d.fail("match needs .any or .all" + where);
    if (!d.q.take("sync")) d.fail("match needs .sync" + where);
    std::vector<Type> types = d.takeTypes();
    if (types.size() != 1 || (types[0] != Type{'b', 32} && types[0] != Type{'b', 64}))
        d.fail("match.sync needs .b32 or .b64" + where);
    d.q.finish();
    return Match{*mode == "all", types[0]};
}

/** redux.sync.op.type ({ReduxSync}): the three syntax lines' operations and types. */
Op decodeRedux(Decoder& d) {
    const std::string where = " (" + cite(Sec::ReduxSync) + ")";
    if (!d.q.take("sync")) d.fail("redux needs .sync" + where);
    auto op = d.takeRow(kReduxOps);
    if (!op) d.fail("redux.sync needs .add, .min, .max, .and, .or or .xor" + where);
    Redux r;
    r.op = *op;
    r.abs = d.q.take("abs");
    r.nan = d.q.take("NaN");
    std::vector<Type> types = d.takeTypes();
    if (types.size() != 1) d.fail("redux.sync needs one type" + where);
    r.type = types[0];
    const bool bitwise = r.op == ReduxOp::And || r.op == ReduxOp::Or || r.op == ReduxOp::Xor;
    const bool f32 = r.type == Type{'f', 32};
    if (bitwise && r.type != Type{'b', 32}) d.fail("redux.sync.and/.or/.xor take .b32" + where);
    if (!bitwise && !f32 && r.type != Type{'u', 32} && r.type != Type{'s', 32})
        d.fail("redux.sync.add/.min/.max take .u32 or .s32 (.min/.max also .f32)" + where);
    if (f32 && r.op == ReduxOp::Add) d.fail("redux.sync.add has no .f32 form" + where);
    if ((r.abs || r.nan) && !f32) d.fail("redux.sync's .abs and .NaN go with .f32" + where);
    d.q.finish();
    return r;
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
    if (n == "vote") return decodeVote(d);
    if (n == "match") return decodeMatch(d);
    if (n == "redux") return decodeRedux(d);
    if (n == "activemask") {
        needType(d, Type{'b', 32}, "activemask needs .b32 (" + cite(Sec::Activemask) + ")");
        d.q.finish();
        return Activemask{};
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
