// Program-determined relations of the model, evaluated once on a concrete "everything happens".
#include "engine/StaticRelations.hpp"

#include "engine/ConcreteModel.hpp"
#include "ir/Vocabulary.hpp"

#include <stdexcept>

namespace ptxmc::engine {

namespace {

// The execution-dependent base name `e` reaches through the model's definitions, or empty.
// Evaluated with empty choices such a name would quietly give a wrong (empty) answer.
std::string choiceUnder(const cat::ResolvedModel& model, const cat::Expr& e,
                        std::vector<bool>& seen) {
    if (e.op == cat::Expr::Op::Name) {
        int b = model.binding.at(&e);
        if (b < 0) {
            const cat::BaseRef& base = model.bases.at(&e);
            const auto* tag = std::get_if<ir::Tag>(&base);
            bool choice = tag ? *tag == ir::Tag::MB_MISUSE : ir::isChoice(std::get<ir::Rel>(base));
            return choice ? e.name : "";
        }
        auto i = static_cast<std::size_t>(b);
        if (seen[i]) return "";
        seen[i] = true;
        return choiceUnder(model, *model.definitions[i].expr, seen);
    }
    for (const auto& a : e.args)
        if (std::string c = choiceUnder(model, *a, seen); !c.empty()) return c;
    return "";
}

} // namespace

std::vector<std::pair<int, int>> staticRelation(const ir::Program& program,
                                                const cat::ResolvedModel& model,
                                                const std::string& name) {
    const cat::ResolvedModel::Definition* def = nullptr;
    for (const auto& d : model.definitions) // the last definition of a name shadows the others
        if (d.name == name) def = &d;
    if (!def || def->kind != cat::Kind::Relation)
        throw std::invalid_argument("the model has no relation definition '" + name + "'");
    std::vector<bool> seen(model.definitions.size(), false);
    if (std::string c = choiceUnder(model, *def->expr, seen); !c.empty())
        throw std::invalid_argument("relation '" + name + "' depends on '" + c +
                                    "', which an execution chooses: it is not static");

    // Every event exists and nothing is chosen: the evaluation sees the program alone.
    std::size_t n = program.events.size();
    Choices none;
    Outcome all;
    all.exists.assign(n, true);
    ConcreteModel concrete(program, model);
    auto ev = concrete.evaluator(none, all);
    auto val = ev.definition(name);
    std::vector<std::pair<int, int>> out;
    if (!val || val->polymorphicEmpty) return out;
    for (std::size_t i = 0; i < n; ++i)
        val->rel.forEachInRow(
            i, [&](std::size_t j) { out.emplace_back(static_cast<int>(i), static_cast<int>(j)); });
    return out;
}

} // namespace ptxmc::engine
