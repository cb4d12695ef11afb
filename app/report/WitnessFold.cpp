// Folding a witness graph to its racing pair, cycle or blocked waits, thread by thread.
#include "report/WitnessFold.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace ptxmc::report {

namespace {

/** The node standing for events `run` (consecutive in one thread): "12 events, lines 20-31". */
WitnessNode foldedNode(const std::vector<const WitnessNode*>& run, int id) {
    WitnessNode n;
    n.id = id;
    n.thread = run.front()->thread;
    n.cta = run.front()->cta;
    int lo = 0, hi = 0;
    for (const auto* e : run)
        if (e->line > 0) {
            lo = lo == 0 ? e->line : std::min(lo, e->line);
            hi = std::max(hi, e->line);
        }
    n.label = std::to_string(run.size()) + (run.size() == 1 ? " event" : " events") +
              (lo > 0 ? ", lines " + std::to_string(lo) + "-" + std::to_string(hi) : "");
    n.description = n.label;
    return n;
}

} // namespace

WitnessGraph foldWitness(const WitnessGraph& g, const std::set<int>& keep, std::size_t most) {
    if (g.nodes.size() <= most) return g;
    std::set<int> shown = keep;
    for (const auto& n : g.nodes)
        if (n.marked) shown.insert(n.id);
    for (const WitnessEdge& e : g.edges)
        if (e.highlight) shown.insert(e.from), shown.insert(e.to);
    // an asynchronous access's issuing instruction, then each kept event's program-order
    // neighbours, for context
    for (const WitnessEdge& e : g.edges)
        if (e.relation == "ae" && shown.count(e.to)) shown.insert(e.from);
    std::set<int> neighbours;
    for (const WitnessEdge& e : g.edges)
        if (e.relation == "po" && (shown.count(e.from) || shown.count(e.to)))
            neighbours.insert(e.from), neighbours.insert(e.to);
    shown.insert(neighbours.begin(), neighbours.end());
    WitnessGraph out;
    out.title = g.title;
    out.notes = g.notes;
    out.highlightMeaning = g.highlightMeaning;
    out.threadNames = g.threadNames;
    int nextId = 0;
    for (const auto& n : g.nodes)
        nextId = std::max(nextId, n.id + 1);
    // nodes come thread by thread in program order: fold each thread's runs of hidden events
    std::map<int, int> standsFor; // hidden event -> its folded node
    std::map<std::string, int> lastOfThread;
    std::vector<const WitnessNode*> run;
    auto flush = [&]() {
        if (run.empty()) return;
        WitnessNode f = foldedNode(run, nextId++);
        for (const auto* e : run)
            standsFor[e->id] = f.id;
        if (auto last = lastOfThread.find(f.thread); last != lastOfThread.end())
            out.edges.push_back({last->second, f.id, "po", false});
        lastOfThread[f.thread] = f.id;
        out.nodes.push_back(f);
        run.clear();
    };
    for (const auto& n : g.nodes) {
        if (!run.empty() && run.front()->thread != n.thread) flush();
        if (n.thread == "init" || shown.count(n.id)) {
            flush();
            if (n.thread != "init" && !n.async) {
                if (auto last = lastOfThread.find(n.thread); last != lastOfThread.end())
                    out.edges.push_back({last->second, n.id, "po", false});
                lastOfThread[n.thread] = n.id;
            }
            if (n.thread == "init" && !shown.count(n.id)) continue;
            out.nodes.push_back(n);
        } else if (!n.async) {
            run.push_back(&n);
        }
    }
    flush();
    for (const WitnessEdge& e : g.edges)
        if (e.relation != "po" && shown.count(e.from) && shown.count(e.to)) out.edges.push_back(e);
    out.notes.push_back("(" + std::to_string(g.nodes.size()) + " events: those that take part " +
                        "and their neighbours drawn, the " + std::to_string(standsFor.size()) +
                        " others of each thread folded, asynchronous accesses that take no "
                        "part left out)");
    return out;
}

} // namespace ptxmc::report
