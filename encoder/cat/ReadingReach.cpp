// Which readings each definition of a model reads through its Reading choices.
#include "cat/ReadingReach.hpp"

namespace ptxmc::cat {

ReadingReach::ReadingReach(const ResolvedModel& model)
    : model_(model), byDefinition_(model.definitions.size()) {
    // In evaluation order a definition names only earlier ones, except within a `let rec`
    // group, whose members name each other: repeated until nothing grows.
    for (bool grew = true; grew;) {
        grew = false;
        for (std::size_t i = 0; i < model.definitions.size(); ++i) {
            std::set<std::string> reached = byDefinition_[i];
            collect(*model.definitions[i].expr, reached);
            if (reached.size() == byDefinition_[i].size()) continue;
            byDefinition_[i] = std::move(reached);
            grew = true;
        }
    }
}

std::set<std::string> ReadingReach::of(const Expr& e) const {
    std::set<std::string> out;
    collect(e, out);
    return out;
}

void ReadingReach::collect(const Expr& e, std::set<std::string>& out) const {
    if (e.op == Expr::Op::Reading) out.insert(e.name);
    if (e.op == Expr::Op::Name) {
        const auto it = model_.binding.find(&e);
        if (it != model_.binding.end() && it->second >= 0) {
            const auto& reached = byDefinition_[static_cast<std::size_t>(it->second)];
            out.insert(reached.begin(), reached.end());
        }
    }
    for (const ExprPtr& a : e.args)
        collect(*a, out);
}

} // namespace ptxmc::cat
