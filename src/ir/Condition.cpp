// Evaluating the final condition in a final state, by observable index.
#include "ir/Condition.hpp"

namespace ptxmc::ir {

bool holds(const Proposition& p, const std::vector<std::int64_t>& values) {
    using K = Proposition::Kind;
    switch (p.kind) {
    case K::True:
        return true;
    case K::False:
        return false;
    case K::Eq:
    case K::Ne: {
        std::int64_t lhs = values.at(static_cast<std::size_t>(p.lhs));
        std::int64_t rhs = p.rhs >= 0 ? values.at(static_cast<std::size_t>(p.rhs)) : p.constant;
        return (lhs == rhs) == (p.kind == K::Eq);
    }
    case K::Not:
        return !holds(p.args.at(0), values);
    case K::And:
        return holds(p.args.at(0), values) && holds(p.args.at(1), values);
    case K::Or:
        return holds(p.args.at(0), values) || holds(p.args.at(1), values);
    case K::Implies:
        return !holds(p.args.at(0), values) || holds(p.args.at(1), values);
    }
    return false;
}

const char* quantifierText(Quantifier q) {
    switch (q) {
    case Quantifier::Exists:
        return "exists";
    case Quantifier::NotExists:
        return "~exists";
    case Quantifier::Forall:
        return "forall";
    }
    return "exists";
}

bool conditionOk(Quantifier q, std::size_t positive, std::size_t negative) {
    switch (q) {
    case Quantifier::Exists:
        return positive > 0;
    case Quantifier::NotExists:
        return positive == 0;
    case Quantifier::Forall:
        return negative == 0;
    }
    return false;
}

} // namespace ptxmc::ir
