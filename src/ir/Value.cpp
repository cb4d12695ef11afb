// Constructors for run-time value expressions, folding what is known while lowering.
#include "ir/Event.hpp"
#include "ir/ValueSemantics.hpp"

#include <algorithm>
#include <stdexcept>

namespace ptxmc::ir {

ValuePtr Value::makeConst(std::int64_t c) {
    auto v = std::make_shared<Value>();
    v->op = Op::Const;
    v->constant = c;
    return v;
}

ValuePtr Value::makeConst64(std::int64_t c) {
    auto v = std::make_shared<Value>();
    v->op = Op::Const;
    v->constant = c;
    v->wide = true;
    return v;
}

ValuePtr Value::readOf(int event) {
    auto v = std::make_shared<Value>();
    v->op = Op::ReadOf;
    v->event = event;
    return v;
}

ValuePtr Value::choice(int index) {
    auto v = std::make_shared<Value>();
    v->op = Op::Choice;
    v->constant = index;
    return v;
}

namespace {

/** Leaves are never reached: only operations over constants are folded. */
struct NoSources {
    [[noreturn]] static std::int64_t fail() { throw std::logic_error("folded a run-time value"); }
    std::int64_t read(int) const { fail(); }
    bool waitSuccess(int) const { fail(); }
    bool waitReport(int) const { fail(); }
    std::int64_t phaseBefore(int) const { fail(); }
    bool choice(std::int64_t) const { fail(); }
};

bool allConst(const std::vector<ValuePtr>& args) {
    return std::all_of(args.begin(), args.end(), [](const ValuePtr& a) { return a->isConst(); });
}

} // namespace

ValuePtr Value::make(Op op, std::vector<ValuePtr> args) {
    // A conditional whose condition is known is the branch it takes; a loop counter or a
    // branch on a constant folds away, so only run-time values reach the engines.
    if (op == Op::Ite && args.at(0)->isConst()) return args[0]->constant != 0 ? args[1] : args[2];
    if (op == Op::Ite && (args.at(1) == args.at(2) || (args[1]->isConst() && args[2]->isConst() &&
                                                       args[1]->constant == args[2]->constant)))
        return args[1]; // both branches hold the same value
    auto v = std::make_shared<Value>();
    v->op = op;
    v->args = std::move(args);
    v->wide = isWideOp(op) || (op == Op::Ite && (v->args.at(1)->wide || v->args.at(2)->wide));
    if (!allConst(v->args)) return v;
    NoSources none;
    constexpr ConcreteValues values{};
    const std::int64_t folded = applyValue(values, *v, none, [&](std::size_t i) {
        const Value& a = *v->args.at(i);
        return a.wide ? a.constant : wrap32(a.constant);
    });
    return v->wide ? makeConst64(folded) : makeConst(folded);
}

bool isWideOp(Value::Op op) {
    switch (op) {
    case Value::Op::Add64:
    case Value::Op::Sub64:
    case Value::Op::Mul64:
    case Value::Op::And64:
    case Value::Op::Or64:
    case Value::Op::Xor64:
        return true;
    default: // the comparisons' results are 0 or 1; every other operation is 32-bit
        return false;
    }
}

} // namespace ptxmc::ir
