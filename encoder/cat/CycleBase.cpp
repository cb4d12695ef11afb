// cycleBase: flattens unions and drops closures from the relation of an `acyclic` check.
#include "cat/CycleBase.hpp"

namespace ptxmc::cat {

const Expr* throughName(const ResolvedModel& model, const Expr* e) {
    while (e->op == Expr::Op::Name) {
        int b = model.binding.at(e);
        if (b < 0) return e;
        const auto& d = model.definitions[static_cast<std::size_t>(b)];
        if (d.recursive) return e;
        e = d.expr.get();
    }
    return e;
}

namespace {

void collect(const ResolvedModel& model, const Expr* e, std::vector<const Expr*>& out) {
    const Expr* body = throughName(model, e);
    if (body->op == Expr::Op::Union && model.kinds.count(body)) {
        for (const auto& a : body->args)
            collect(model, a.get(), out);
        return;
    }
    if (body->op == Expr::Op::Plus) {
        collect(model, body->args.at(0).get(), out);
        return;
    }
    out.push_back(e); // keep the name itself: its value is memoised and shared
}

} // namespace

std::vector<const Expr*> cycleBase(const ResolvedModel& model, const Expr* e) {
    std::vector<const Expr*> out;
    collect(model, e, out);
    return out;
}

} // namespace ptxmc::cat
