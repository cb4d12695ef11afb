// Witness graphs: the execution's events and edges, and the evidence against one axiom.
#include "explain/WitnessBuilder.hpp"

#include "cat/ExprText.hpp"
#include "engine/ResultBuilder.hpp"

#include <functional>
#include <set>

namespace ptxmc::engine::explain {

namespace {

std::string ev(int id) {
    return "e" + std::to_string(id);
}

/** A cycle of r, as a list of events (first repeated at the end), or empty. */
std::vector<int> findCycle(const BoolRel& r) {
    std::size_t n = r.size();
    std::vector<int> state(n, 0), stack, cycle;
    std::function<bool(int)> dfs = [&](int v) {
        state[static_cast<std::size_t>(v)] = 1;
        stack.push_back(v);
        bool found = false;
        r.forEachInRow(static_cast<std::size_t>(v), [&](std::size_t u) {
            if (found) return;
            int w = static_cast<int>(u);
            if (state[u] == 1) {
                auto it = std::find(stack.begin(), stack.end(), w);
                cycle.assign(it, stack.end());
                cycle.push_back(w);
                found = true;
            } else if (state[u] == 0 && dfs(w)) {
                found = true;
            }
        });
        if (found) return true;
        stack.pop_back();
        state[static_cast<std::size_t>(v)] = 2;
        return false;
    };
    for (std::size_t v = 0; v < n; ++v)
        if (state[v] == 0 && dfs(static_cast<int>(v))) break;
    return cycle;
}

/** "tcgen05.mma.cta_group::1.kind::f16 (write D)" -> "tcgen05.mma (write D)": readable nodes. */
std::string shortLabel(const std::string& text) {
    std::string opcode = text.substr(0, text.find(' '));
    std::string rest = text.size() > opcode.size() ? text.substr(opcode.size()) : "";
    std::vector<std::string> parts;
    for (std::size_t at = 0;;) {
        std::size_t dot = opcode.find('.', at);
        parts.push_back(opcode.substr(at, dot == std::string::npos ? dot : dot - at));
        if (dot == std::string::npos) break;
        at = dot + 1;
    }
    std::size_t keep = parts[0] == "tcgen05" || parts[0] == "mbarrier" ? 2
                       : parts[0] == "cp"                              ? 3
                                                                       : 3;
    std::string out;
    for (std::size_t i = 0; i < parts.size() && i < keep; ++i)
        out += (i ? "." : "") + parts[i];
    return out + rest;
}

/** The first operand of `e` (a union, else `e` itself) that holds pair (a, b): how a step of
 *  a cycle is named. */
std::string partHolding(Evaluator<BoolAlgebra>& evaluator, const cat::Expr& e, int a, int b) {
    auto holds = [&](const cat::Expr& part) {
        return evaluator.relation(part).test(static_cast<std::size_t>(a),
                                             static_cast<std::size_t>(b));
    };
    if (e.op == cat::Expr::Op::Union)
        for (const auto& part : e.args)
            if (holds(*part)) return partHolding(evaluator, *part, a, b);
    // (rf | fr) & (GM * GM): the union says which relation, the filter adds nothing to read
    if (e.op == cat::Expr::Op::Inter && !e.args.empty() &&
        e.args.front()->op == cat::Expr::Op::Union)
        return partHolding(evaluator, *e.args.front(), a, b);
    return cat::exprText(e);
}

} // namespace

std::string describeEvent(const ir::Program& p, const Outcome& o, int id) {
    const ir::Event& e = p.events[static_cast<std::size_t>(id)];
    if (e.thread < 0 && e.issue < 0)
        return "init: " + p.locations[static_cast<std::size_t>(e.location)].name + " = " +
               std::to_string(o.value[static_cast<std::size_t>(id)]);
    const EventRef ref = eventRef(p, id);
    std::string out = "P" + std::to_string(ref.thread) + " line " + std::to_string(ref.loc.line);
    if (ref.iteration >= 0) out += ", iteration " + std::to_string(ref.iteration);
    out += ": " + shortLabel(e.text) + mbarrierText(ref);
    if (auto ph = o.phaseBefore.find(id); ph != o.phaseBefore.end())
        out += ", in phase " + std::to_string(ph->second);
    if (e.has(ir::Tag::R) || e.has(ir::Tag::W))
        out += std::string(e.has(ir::Tag::W) ? ", writes " : ", reads ") +
               p.locations[static_cast<std::size_t>(e.location)].name + " = " +
               std::to_string(o.value[static_cast<std::size_t>(id)]);
    return out;
}

AxiomEvidence axiomEvidence(const ConcreteModel& cm, const Choices& c, const Outcome& o,
                            const cat::Axiom& axiom) {
    AxiomEvidence out;
    Evaluator<BoolAlgebra> evaluator = cm.evaluator(c, o);
    auto val = evaluator.eval(*axiom.expr);
    std::string expr = cat::exprText(*axiom.expr);
    if (val.polymorphicEmpty) return out;
    if (val.isSet) {
        out.text = "non-empty: ";
        val.set.forEach([&](std::size_t i) {
            out.text += ev(static_cast<int>(i)) + " ";
            out.events.push_back(static_cast<int>(i));
        });
        out.text += "in " + expr;
        return out;
    }
    if (axiom.test == cat::Stmt::Test::Acyclic) {
        std::vector<int> cycle = findCycle(val.rel);
        out.text = "cycle";
        out.cycle = true;
        for (std::size_t i = 0; i < cycle.size(); ++i) {
            out.text += (i ? " -> " : " ") + ev(cycle[i]);
            if (i == 0) continue;
            out.edges.emplace_back(cycle[i - 1], cycle[i]);
            out.relations.push_back(partHolding(evaluator, *axiom.expr, cycle[i - 1], cycle[i]));
        }
        out.text += " in " + expr;
        return out;
    }
    for (std::size_t i = 0; i < val.rel.size(); ++i) {
        for (std::size_t j = 0; j < val.rel.size(); ++j) {
            if (!val.rel.test(i, j)) continue;
            if (axiom.test == cat::Stmt::Test::Irreflexive && j != i) continue;
            int a = static_cast<int>(i), b = static_cast<int>(j);
            // For r1 ; r2, name the event in the middle: the two halves of the broken pair.
            if (axiom.expr->op == cat::Expr::Op::Seq && axiom.expr->args.size() == 2) {
                auto first = evaluator.relation(*axiom.expr->args[0]);
                auto second = evaluator.relation(*axiom.expr->args[1]);
                for (std::size_t k = 0; k < val.rel.size(); ++k)
                    if (first.test(i, k) && second.test(k, j)) {
                        int m = static_cast<int>(k);
                        out.text = ev(a) + " -(" + cat::exprText(*axiom.expr->args[0]) + ")-> " +
                                   ev(m) + " -(" + cat::exprText(*axiom.expr->args[1]) + ")-> " +
                                   ev(b);
                        out.edges = {{a, m}, {m, b}};
                        out.relations = {partHolding(evaluator, *axiom.expr->args[0], a, m),
                                         partHolding(evaluator, *axiom.expr->args[1], m, b)};
                        out.cycle = a == b; // irreflexive r1 ; r2: back where it started
                        return out;
                    }
            }
            out.edges.emplace_back(a, b);
            out.relations.push_back(partHolding(evaluator, *axiom.expr, a, b));
            out.cycle = a == b;
            out.text = "(" + ev(a) + ", " + ev(b) + ") in " + expr;
            return out;
        }
    }
    return out;
}

explain::WitnessGraph buildWitness(const ir::Program& p, const cat::ResolvedModel& model,
                                   const ConcreteModel& cm, const Choices& c, const Outcome& o,
                                   const std::vector<std::pair<int, int>>& highlight,
                                   const std::string& highlightName) {
    explain::WitnessGraph g;
    std::set<int> used; // initial writes appear only where something reads or orders them
    for (const auto& [r, w] : c.rf)
        used.insert(w);
    for (const auto& [loc, order] : c.co)
        if (order.size() > 1) used.insert(order.front());
    for (const auto& e : p.events) {
        if (!o.exists[static_cast<std::size_t>(e.id)]) continue;
        if (e.has(ir::Tag::IW) && !used.count(e.id)) continue;
        explain::WitnessNode n;
        n.id = e.id;
        n.thread = e.thread < 0
                       ? "init"
                       : "P" + std::to_string(p.threads[static_cast<std::size_t>(e.thread)].id);
        n.cta = e.thread < 0 ? -1 : e.cta;
        n.label = e.has(ir::Tag::IW) ? "" : shortLabel(e.text); // thread "init" says it
        n.line = e.has(ir::Tag::IW) ? 0 : e.loc.line;
        if (e.has(ir::Tag::R) || e.has(ir::Tag::W)) {
            n.value = o.value[static_cast<std::size_t>(e.id)];
            // an atom's two events are one instruction: R then W of the same cell
            n.access = std::string(e.has(ir::Tag::W) ? "W " : "R ") +
                       p.locations[static_cast<std::size_t>(e.location)].name;
        }
        n.async = e.issue >= 0;
        n.description = describeEvent(p, o, e.id);
        g.nodes.push_back(n);
    }
    std::set<int> shown;
    for (const auto& n : g.nodes)
        shown.insert(n.id);
    auto add = [&](int a, int b, const std::string& rel, bool hl = false) {
        if (shown.count(a) && shown.count(b)) g.edges.push_back({a, b, rel, hl});
    };
    for (const auto& t : p.threads)
        for (std::size_t i = 0; i + 1 < t.events.size(); ++i)
            add(t.events[i], t.events[i + 1], "po");
    for (const auto& e : p.events)
        if (e.issue >= 0) add(e.issue, e.id, "ae");
    for (const auto& [r, w] : c.rf)
        add(w, r, "rf");
    for (const auto& [loc, order] : c.co)
        for (std::size_t i = 0; i + 1 < order.size(); ++i)
            add(order[i], order[i + 1], "co");
    // each mbarrier's operations in the order it performs them (those that happen)
    for (const auto& [loc, order] : c.mbo) {
        int last = -1;
        for (int op : order) {
            if (!o.exists[static_cast<std::size_t>(op)]) continue;
            if (last >= 0) add(last, op, "mbo");
            last = op;
        }
    }
    for (const auto& [r, w] : c.rf) {
        const auto& order = c.co.at(p.events[static_cast<std::size_t>(r)].location);
        auto it = std::find(order.begin(), order.end(), w);
        if (it != order.end() && it + 1 != order.end()) add(r, *(it + 1), "fr");
    }
    Evaluator<BoolAlgebra> evaluator = cm.evaluator(c, o);
    for (const auto& name : model.shown) {
        auto def = evaluator.definition(name);
        if (def && def->isSet) continue;
        std::optional<ir::Rel> base = def ? std::nullopt : ir::relByName(name);
        if (!def && !base) continue; // a base set: nothing to draw as edges
        BoolRel r = def ? def->rel : cm.baseRelation(*base, c, o);
        for (std::size_t i = 0; i < r.size(); ++i)
            r.forEachInRow(i, [&](std::size_t j) {
                if (i != j) add(static_cast<int>(i), static_cast<int>(j), name);
            });
    }
    for (const auto& [a, b] : highlight) {
        // thicken the edge when it is drawn already, else draw it thick
        auto same = [&, a = a, b = b](const explain::WitnessEdge& e) {
            return e.from == a && e.to == b && e.relation == highlightName;
        };
        auto it = std::find_if(g.edges.begin(), g.edges.end(), same);
        if (it != g.edges.end())
            it->highlight = true;
        else
            add(a, b, highlightName, true);
    }
    return g;
}

} // namespace ptxmc::engine::explain
