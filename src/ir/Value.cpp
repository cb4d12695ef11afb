// Constructors for run-time value expressions.
#include "ir/Event.hpp"

namespace ptxmc::ir {

ValuePtr Value::makeConst(std::int64_t c) {
    auto v = std::make_shared<Value>();
    v->op = Op::Const;
    v->constant = c;
    return v;
}

ValuePtr Value::readOf(int event) {
    auto v = std::make_shared<Value>();
    v->op = Op::ReadOf;
    v->event = event;
    return v;
}

ValuePtr Value::make(Op op, std::vector<ValuePtr> args) {
    auto v = std::make_shared<Value>();
    v->op = op;
    v->args = std::move(args);
    return v;
}

} // namespace ptxmc::ir
