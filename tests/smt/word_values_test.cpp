// The integer operations of the value algebra on 32- and 64-bit words: the explicit engine's
// (ConcreteValues) and the solver's (Z3Values, with words of 32 or 64 bits) give the same word.
#include "ir/ValueSemantics.hpp"
#include "smt/Z3Algebra.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

using namespace ptxmc;
using engine::smt::Z3Values;
using ir::ConcreteValues;
using Op = ir::Value::Op;

namespace {

/** Leaves never reached: every operand is a constant. */
struct NoSources {
    std::int64_t read(int) const { return 0; }
    bool waitSuccess(int) const { return false; }
    std::int64_t phaseBefore(int) const { return 0; }
    bool choice(std::int64_t) const { return false; }
    bool waitReport(int) const { return false; }
};
struct NoZ3Sources {
    z3::context& ctx;
    z3::expr read(int) const { return ctx.bv_val(0, 64); }
    z3::expr waitSuccess(int) const { return ctx.bool_val(false); }
    z3::expr phaseBefore(int) const { return ctx.int_val(0); }
    z3::expr choice(std::int64_t) const { return ctx.bool_val(false); }
    z3::expr waitReport(int) const { return ctx.bool_val(false); }
};

/** An unfolded operation on two constants (Value::make would fold it). */
ir::Value operation(Op op, std::int64_t a, bool aWide, std::int64_t b, bool bWide) {
    ir::Value v;
    v.op = op;
    v.args = {aWide ? ir::Value::makeConst64(a) : ir::Value::makeConst(a),
              bWide ? ir::Value::makeConst64(b) : ir::Value::makeConst(b)};
    return v;
}

std::int64_t concrete(const ir::Value& v) {
    NoSources none;
    return ir::applyValue(ConcreteValues{}, v, none, [&](std::size_t i) {
        const ir::Value& a = *v.args.at(i);
        return a.wide ? ConcreteValues::word64(a.constant) : ConcreteValues::word(a.constant);
    });
}

std::int64_t solver(z3::context& ctx, unsigned bits, const ir::Value& v) {
    const Z3Values z{ctx, bits};
    NoZ3Sources none{ctx};
    const z3::expr e = ir::applyValue(z, v, none, [&](std::size_t i) {
        const ir::Value& a = *v.args.at(i);
        return a.wide ? z.word64(a.constant) : z.word(a.constant);
    });
    const std::uint64_t u = e.simplify().get_numeral_uint64();
    return bits == 64 ? static_cast<std::int64_t>(u) : ir::wrap32(static_cast<std::int64_t>(u));
}

/** Words at the edges of 32 and 64 bits, and random ones of each width. */
std::vector<std::pair<std::int64_t, bool>> words() {
    std::vector<std::pair<std::int64_t, bool>> out;
    for (std::int64_t v : {0LL, 1LL, -1LL, 0x7fffffffLL, -0x80000000LL, 2LL, 31LL, 32LL})
        out.emplace_back(v, false);
    for (std::int64_t v : {0LL, 1LL, -1LL, 0xffffffffLL, 0x100000000LL, 0x7fffffffffffffffLL,
                           static_cast<long long>(0x8000000000000000ULL), 0x1ffffffffLL})
        out.emplace_back(v, true);
    std::mt19937_64 random(20261203); // fixed: the same words every run
    for (int i = 0; i < 40; ++i) {
        out.emplace_back(ir::wrap32(static_cast<std::int64_t>(random())), false);
        out.emplace_back(static_cast<std::int64_t>(random()), true);
    }
    return out;
}

} // namespace

TEST_CASE("integer operations: both engines give the same word, with 32- and 64-bit words") {
    const std::vector<Op> narrow = {Op::Add, Op::Sub, Op::Mul, Op::And, Op::Or,  Op::Xor,
                                    Op::Max, Op::Min, Op::Eq,  Op::Lt,  Op::Ltu, Op::Lshr};
    const std::vector<Op> wide = {Op::Add64, Op::Sub64, Op::Mul64, Op::And64, Op::Or64,
                                  Op::Xor64, Op::Lt64,  Op::Ltu64, Op::Eq64};
    z3::context ctx;
    const auto ws = words();
    for (const auto& [a, aWide] : ws)
        for (const auto& [b, bWide] : ws) {
            for (Op op : narrow) {
                const ir::Value v = operation(op, a, aWide, b, bWide);
                INFO("op " << static_cast<int>(op) << ": " << a << ", " << b);
                REQUIRE(concrete(v) == solver(ctx, 64, v));
                // a 32-bit operation's result is a 32-bit word, sign-extended
                REQUIRE(concrete(v) == ir::wrap32(concrete(v)));
                if (!aWide && !bWide) REQUIRE(concrete(v) == solver(ctx, 32, v));
            }
            for (Op op : wide) {
                const ir::Value v = operation(op, a, aWide, b, bWide);
                INFO("op " << static_cast<int>(op) << ": " << a << ", " << b);
                REQUIRE(concrete(v) == solver(ctx, 64, v));
            }
        }
}

TEST_CASE("64-bit operations carry, borrow and compare on all 64 bits") {
    auto eval = [](Op op, std::int64_t a, std::int64_t b) {
        return concrete(operation(op, a, true, b, true));
    };
    CHECK(eval(Op::Add64, 0xffffffff, 1) == 0x100000000);
    CHECK(eval(Op::Add, 0xffffffff, 1) == 0); // the 32-bit add wraps at 32 bits
    CHECK(eval(Op::Sub64, 0x100000000, 1) == 0xffffffff);
    CHECK(eval(Op::Mul64, 0x100000000, 3) == 0x300000000);
    CHECK(eval(Op::Ltu64, 1, 0x100000000) == 1);
    CHECK(eval(Op::Ltu, 1, 0x100000000) == 0); // the low halves: 1 < 0 is false
    CHECK(eval(Op::Lt64, -1, 0x100000000) == 1);
    CHECK(eval(Op::Eq64, 0, 0x100000000) == 0);
    CHECK(eval(Op::Eq, 0, 0x100000000) == 1); // the low halves match
}
