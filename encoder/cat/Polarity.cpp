// Polarity of a model's subexpressions: propagated from the checks through operators and lets.
#include "cat/Polarity.hpp"

#include <vector>

namespace ptxmc::cat {

namespace {

unsigned flip(unsigned use) {
    return ((use & Antitone) ? Monotone : 0U) | ((use & Monotone) ? Antitone : 0U);
}

class Propagation {
public:
    explicit Propagation(const ResolvedModel& m) : model_(m), defUses_(m.definitions.size(), 0) {}

    Polarity run() {
        for (std::size_t i = 0; i < model_.definitions.size(); ++i)
            if (model_.definitions[i].recursive) markRecursive(model_.definitions[i].expr.get());
        // Every test (acyclic, irreflexive, empty) gets harder as its relation grows; a
        // negated one easier. A flag is raised when its test holds, so the same rule applies.
        for (const auto& a : model_.axioms)
            visit(a.expr.get(), a.negated ? Monotone : Antitone);
        return std::move(out_);
    }

private:
    void markRecursive(const Expr* e) {
        out_.recursive.insert(e);
        for (const auto& a : e->args)
            markRecursive(a.get());
    }

    /** Adds `use` to `e` and everything below it; definitions are entered once per new use. */
    void visit(const Expr* e, unsigned use) {
        unsigned& have = out_.uses[e];
        if ((have | use) == have && have != 0) return;
        have |= use;
        using Op = Expr::Op;
        switch (e->op) {
        case Op::Name: {
            int b = model_.binding.at(e);
            if (b < 0) return;
            unsigned& d = defUses_[static_cast<std::size_t>(b)];
            if ((d | use) == d) return;
            d |= use;
            visit(model_.definitions[static_cast<std::size_t>(b)].expr.get(), d);
            return;
        }
        case Op::Diff:
            visit(e->args.at(0).get(), use);
            for (std::size_t i = 1; i < e->args.size(); ++i)
                visit(e->args[i].get(), flip(use));
            return;
        case Op::Complement:
            visit(e->args.at(0).get(), flip(use));
            return;
        default: // every other operator is monotone in each operand
            for (const auto& a : e->args)
                visit(a.get(), use);
            return;
        }
    }

    const ResolvedModel& model_;
    std::vector<unsigned> defUses_;
    Polarity out_;
};

} // namespace

bool Polarity::mayGrow(const Expr* e) const {
    if (recursive.count(e)) return false;
    auto it = uses.find(e);
    return it != uses.end() && it->second == Antitone;
}

Polarity analysePolarity(const ResolvedModel& model) {
    return Propagation(model).run();
}

} // namespace ptxmc::cat
