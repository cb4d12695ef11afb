// Name resolution and kind checking for cat models: a misspelled name is an error, never empty.
#include "cat/Resolver.hpp"

#include "ir/Vocabulary.hpp"

#include <algorithm>
#include <optional>
#include <set>

namespace ptxmc::cat {

namespace {

std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

const char* kindName(Kind k) {
    return k == Kind::Set ? "a set" : "a relation";
}

class Resolver {
public:
    explicit Resolver(ResolvedModel& out) : out_(out) {}

    void statement(const Stmt& s) {
        switch (s.kind) {
        case Stmt::Kind::Let:
            letBinding(s.bindings.at(0));
            break;
        case Stmt::Kind::LetRec:
            letRec(s);
            break;
        case Stmt::Kind::Check:
            check(s);
            break;
        case Stmt::Kind::Show:
            for (const auto& n : s.shown) {
                if (!scope_.count(n) && !ir::findBaseName(n)) unknown(n, s.loc);
                out_.shown.push_back(n);
            }
            break;
        }
    }

private:
    void letBinding(const Binding& b) {
        auto kind = infer(b.expr.get(), {});
        addDefinition(b, kind.value_or(Kind::Relation), false, -1);
    }

    void letRec(const Stmt& s) {
        int group = nextGroup_++;
        std::set<std::string> names;
        for (const auto& b : s.bindings)
            names.insert(b.name);
        // Recursive names are relations unless a binding says otherwise (sets rarely recurse).
        std::map<std::string, int> indices;
        for (const auto& b : s.bindings)
            indices[b.name] = addDefinition(b, Kind::Relation, true, group);
        for (const auto& b : s.bindings) {
            auto kind = infer(b.expr.get(), names);
            if (kind && *kind != Kind::Relation)
                throw InputError(b.loc, "recursive definition '" + b.name + "' must be a relation");
            checkMonotone(b.expr.get(), names, false, b.name);
        }
    }

    void check(const Stmt& s) {
        auto kind = infer(s.expr.get(), {});
        if (s.name.empty()) throw InputError(s.loc, "every check needs a name: add 'as NAME'");
        for (const auto& a : out_.axioms)
            if (a.name == s.name) throw InputError(s.loc, "two checks are named '" + s.name + "'");
        if (s.test != Stmt::Test::Empty && kind == Kind::Set)
            throw InputError(s.expr->loc, "acyclic/irreflexive need a relation, found a set");
        Axiom a;
        a.name = s.name;
        a.test = s.test;
        a.negated = s.negated;
        a.flag = s.flag;
        a.expr = s.expr;
        a.doc = s.doc;
        a.loc = s.loc;
        out_.axioms.push_back(a);
    }

    int addDefinition(const Binding& b, Kind kind, bool recursive, int group) {
        ResolvedModel::Definition d;
        d.name = b.name;
        d.expr = b.expr;
        d.kind = kind;
        d.recursive = recursive;
        d.group = group;
        d.loc = b.loc;
        int index = static_cast<int>(out_.definitions.size());
        out_.definitions.push_back(d);
        scope_[b.name] = index;
        return index;
    }

    [[noreturn]] void unknown(const std::string& name, const SourceLoc& loc) {
        std::string best;
        std::size_t bestDistance = 3;
        auto consider = [&](const std::string& cand) {
            std::size_t dist = editDistance(name, cand);
            if (dist < bestDistance) {
                bestDistance = dist;
                best = cand;
            }
        };
        for (const auto& [n, i] : scope_)
            consider(n);
        for (const auto& b : ir::baseVocabulary())
            consider(b.name);
        std::string msg = "unknown relation or set '" + name + "'";
        if (!best.empty()) msg += " (did you mean '" + best + "'?)";
        throw InputError(loc, msg);
    }

    std::optional<Kind> record(const Expr* e, std::optional<Kind> k) {
        if (k) out_.kinds[e] = *k;
        return k;
    }

    std::optional<Kind> unify(const Expr* e, std::optional<Kind> a, std::optional<Kind> b) {
        if (a && b && *a != *b)
            throw InputError(e->loc,
                             std::string("operands mix ") + kindName(*a) + " and " + kindName(*b));
        return a ? a : b;
    }

    Kind need(const Expr* e, std::optional<Kind> got, Kind want) {
        if (got && *got != want)
            throw InputError(e->loc, std::string("expected ") + kindName(want) + ", found " +
                                         kindName(*got));
        return want;
    }

    std::optional<Kind> infer(const Expr* e, const std::set<std::string>& recursive) {
        using Op = Expr::Op;
        auto arg = [&](std::size_t i) { return infer(e->args.at(i).get(), recursive); };
        switch (e->op) {
        case Op::Name: {
            auto it = scope_.find(e->name);
            if (it != scope_.end()) {
                out_.binding[e] = it->second;
                if (recursive.count(e->name)) return record(e, Kind::Relation);
                return record(e, out_.definitions[static_cast<std::size_t>(it->second)].kind);
            }
            const ir::BaseName* base = ir::findBaseName(e->name);
            if (!base) unknown(e->name, e->loc);
            out_.binding[e] = -1;
            if (base->isSet)
                out_.bases.emplace(e, ir::requireTag(base->name));
            else
                out_.bases.emplace(e, ir::requireRel(base->name));
            return record(e, base->isSet ? Kind::Set : Kind::Relation);
        }
        case Op::Empty:
            return std::nullopt;
        case Op::Universe:
            return record(e, Kind::Set);
        case Op::Union:
        case Op::Inter:
        case Op::Diff: {
            std::optional<Kind> k;
            for (std::size_t i = 0; i < e->args.size(); ++i)
                k = unify(e, k, arg(i));
            return record(e, k);
        }
        case Op::Seq:
            for (std::size_t i = 0; i < e->args.size(); ++i)
                need(e->args[i].get(), arg(i), Kind::Relation);
            return record(e, Kind::Relation);
        case Op::Cartesian:
            need(e->args[0].get(), arg(0), Kind::Set);
            need(e->args[1].get(), arg(1), Kind::Set);
            return record(e, Kind::Relation);
        case Op::Complement:
            return record(e, arg(0));
        case Op::Inverse:
        case Op::Plus:
        case Op::Star:
        case Op::Opt:
            need(e->args[0].get(), arg(0), Kind::Relation);
            return record(e, Kind::Relation);
        case Op::Bracket:
            need(e->args[0].get(), arg(0), Kind::Set);
            return record(e, Kind::Relation);
        case Op::Domain:
        case Op::Range:
            need(e->args[0].get(), arg(0), Kind::Relation);
            return record(e, Kind::Set);
        case Op::Reading:
            return record(e, unify(e, arg(0), arg(1)));
        }
        return std::nullopt;
    }

    /** A recursive name under complement or on the right of a difference has no least fixpoint. */
    void checkMonotone(const Expr* e, const std::set<std::string>& names, bool negative,
                       const std::string& def) {
        if (e->op == Expr::Op::Name && names.count(e->name) && negative)
            throw InputError(e->loc, "'let rec " + def + "' uses '" + e->name +
                                         "' under a complement or difference: no least fixpoint");
        for (std::size_t i = 0; i < e->args.size(); ++i) {
            bool neg =
                negative || e->op == Expr::Op::Complement || (e->op == Expr::Op::Diff && i > 0);
            checkMonotone(e->args[i].get(), names, neg, def);
        }
    }

    ResolvedModel& out_;
    std::map<std::string, int> scope_;
    int nextGroup_ = 0;
};

} // namespace

std::shared_ptr<const ResolvedModel> resolveModel(const Model& model) {
    auto out = std::make_shared<ResolvedModel>();
    out->title = model.title;
    out->files = model.files;
    out->readings = model.readings;
    Resolver r(*out);
    for (const auto& s : model.stmts)
        r.statement(s);
    if (out->axioms.empty())
        throw InputError(SourceLoc{model.files.empty() ? "" : model.files[0], 1, 1},
                         "the model has no checks (acyclic/irreflexive/empty ... as NAME)");
    return out;
}

} // namespace ptxmc::cat
