// Text and Graphviz renderings of a witness execution.
#include "report/WitnessGraph.hpp"

#include <map>
#include <set>
#include <sstream>

namespace ptxmc::report {

namespace {

std::string escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

std::string nodeText(const WitnessNode& n) {
    std::string s = n.label;
    if (n.value) s += " = " + std::to_string(*n.value);
    return s;
}

const char* colourOf(const std::string& relation) {
    static const std::map<std::string, const char*> colours = {
        {"po", "black"},     {"rf", "red"},       {"co", "blue"},         {"fr", "orange"},
        {"ae", "gray50"},    {"sw", "darkgreen"}, {"tc-order", "purple"}, {"xsync", "darkcyan"},
        {"mb-obs", "brown"}, {"sc", "magenta"},   {"mbo", "steelblue"}};
    auto it = colours.find(relation);
    return it == colours.end() ? "gray30" : it->second;
}

} // namespace

std::string toText(const WitnessGraph& g) {
    std::ostringstream out;
    out << g.title << "\n";
    for (const auto& n : g.nodes) {
        out << "  e" << n.id << "  " << n.thread;
        if (n.cta >= 0) out << "@cta" << n.cta;
        out << "  " << nodeText(n) << (n.async ? "  [async]" : "") << "\n";
    }
    for (const auto& e : g.edges)
        out << "  " << e.relation << ": e" << e.from << " -> e" << e.to
            << (e.highlight ? "   <== breaks the axiom" : "") << "\n";
    for (const auto& line : g.notes)
        out << line << "\n";
    return out.str();
}

std::string toDot(const WitnessGraph& g) {
    std::ostringstream out;
    out << "digraph witness {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\", "
           "fontsize=10];\n"
        << "  edge [fontsize=9];\n  label=\"" << escape(g.title) << "\";\n  labelloc=t;\n";
    std::map<int, std::map<std::string, std::vector<const WitnessNode*>>> byCta;
    for (const auto& n : g.nodes)
        byCta[n.cta][n.thread].push_back(&n);
    for (const auto& [cta, threads] : byCta) {
        if (cta >= 0)
            out << "  subgraph cluster_cta" << cta << " {\n    label=\"CTA " << cta << "\";\n";
        for (const auto& [thread, nodes] : threads) {
            out << "    subgraph cluster_" << (cta < 0 ? 0 : cta) << "_" << thread
                << " {\n      label=\"" << escape(thread) << "\";\n";
            for (const auto* n : nodes)
                out << "      e" << n->id << " [label=\"e" << n->id << ": " << escape(nodeText(*n))
                    << "\"" << (n->async ? ", style=dashed" : "") << "];\n";
            out << "    }\n";
        }
        if (cta >= 0) out << "  }\n";
    }
    for (const auto& e : g.edges)
        out << "  e" << e.from << " -> e" << e.to << " [label=\"" << escape(e.relation)
            << "\", color=\"" << colourOf(e.relation) << "\", fontcolor=\"" << colourOf(e.relation)
            << "\"" << (e.highlight ? ", penwidth=3" : "")
            << (e.relation == "po"   ? ", weight=10"
                : e.relation == "ae" ? ", weight=2"
                                     : ", constraint=false")
            << "];\n";
    if (!g.notes.empty()) {
        out << "  notes [shape=note, label=\"";
        for (const auto& line : g.notes)
            out << escape(line) << "\\l";
        out << "\"];\n";
    }
    out << "}\n";
    return out.str();
}

} // namespace ptxmc::report
