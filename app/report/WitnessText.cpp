// Text and Graphviz renderings of a witness execution.
#include "report/WitnessText.hpp"

#include "ir/Vocabulary.hpp"
#include "report/Markup.hpp"

#include <algorithm>
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

/** How a drawn relation looks; what it means where the base vocabulary does not say. */
struct RelationStyle {
    const char* colour;
    const char* meaning; ///< the model's relations only; base relations: ir/Vocabulary.def
};

/** The relations a witness picture knows, by name: their colours, in legend (name) order.
 *  fr, sw, tc-order and xsync are the model's, defined in its cat files: their meaning is
 *  here. The others are the base vocabulary's, whose entries say what they mean. */
const std::map<std::string, RelationStyle>& relationStyles() {
    static const std::map<std::string, RelationStyle> styles = {
        {"po", {"black", nullptr}},
        {"rf", {"red", nullptr}},
        {"co", {"blue", nullptr}},
        {"fr", {"orange", "from-read (read before a later write)"}},
        {"ae", {"gray50", nullptr}},
        {"sw", {"darkgreen", "synchronizes-with"}},
        {"tc-order", {"purple", "tcgen05 pipelining and completion order"}},
        {"xsync", {"darkcyan", "execution-ordering operation observed by another thread"}},
        {"mb-obs", {"brown", nullptr}},
        {"sc", {"magenta", nullptr}},
        {"mbo", {"steelblue", nullptr}}};
    return styles;
}

/** What a relation of the legend means: the base vocabulary's entry up to its first ':' (the
 *  rest is detail), or the model relation's meaning above. */
std::string meaningOf(const std::string& name, const RelationStyle& style) {
    if (style.meaning != nullptr) return style.meaning;
    const ir::BaseName* base = ir::findBaseName(name);
    if (base == nullptr) return name;
    return base->doc.substr(0, base->doc.find(':'));
}

const char* colourOf(const std::string& relation) {
    auto it = relationStyles().find(relation);
    return it == relationStyles().end() ? "gray30" : it->second.colour;
}

/** Thread number of "P12" (init and anything else sort first). */
int threadNumber(const std::string& thread) {
    if (thread.size() < 2 || thread[0] != 'P') return -1;
    try {
        return std::stoi(thread.substr(1));
    } catch (const std::exception&) {
        return -1;
    }
}

/** Thread "Pi"'s own name in `g` (a kernel's "CTA 0 warp 4"), or "" where it has none. */
std::string ownName(const WitnessGraph& g, const std::string& thread) {
    const int t = threadNumber(thread);
    return t >= 0 && static_cast<std::size_t>(t) < g.threadNames.size()
               ? g.threadNames[static_cast<std::size_t>(t)]
               : std::string();
}

} // namespace

std::string nodeText(const WitnessNode& n) {
    if (!n.access.empty() && n.value)
        return n.access + "=" + std::to_string(*n.value) + (n.label.empty() ? "" : "  " + n.label);
    std::string s = n.label;
    if (n.value) s += " = " + std::to_string(*n.value);
    return s;
}

std::string toText(const WitnessGraph& g) {
    std::ostringstream out;
    out << g.title << "\n";
    for (const auto& n : g.nodes) {
        const std::string own = ownName(g, n.thread);
        out << "  e" << n.id << "  " << (own.empty() ? n.thread : own);
        if (n.cta >= 0 && own.empty()) out << "@cta" << n.cta;
        if (!n.where.empty())
            out << " at " << n.where;
        else if (n.line > 0)
            out << " (line " << n.line << ")";
        out << "  " << nodeText(n) << (n.async ? "  [async]" : "") << "\n";
    }
    for (const auto& e : g.edges)
        out << "  " << e.relation << ": e" << e.from << " -> e" << e.to
            << (e.highlight ? "   <== " + g.highlightMeaning : "") << "\n";
    for (const auto& line : g.notes)
        out << line << "\n";
    return out.str();
}

namespace {

void writeNode(std::ostringstream& out, const WitnessNode& n, const char* indent) {
    out << indent << "e" << n.id << " [label=\"e" << n.id << ": " << escape(nodeText(n))
        << (n.line > 0 ? "\\nline " + std::to_string(n.line) : std::string()) << "\""
        << (n.async ? ", style=dashed" : "") << (n.marked ? ", color=red, penwidth=3" : "")
        << "];\n";
}

} // namespace

std::string toDot(const WitnessGraph& g) {
    std::ostringstream out;
    out << "digraph witness {\n  rankdir=TB;\n  newrank=true;\n  nodesep=0.3;\n  ranksep=0.35;\n"
           "  node [shape=box, fontname=\"monospace\", fontsize=10, margin=\"0.08,0.03\"];\n"
        << "  edge [fontsize=9];\n  label=\"" << escape(g.title) << "\";\n  labelloc=t;\n";
    // Initial writes on one row at the top, out of the threads' way.
    std::vector<const WitnessNode*> init;
    // CTAs left to right by their first thread, threads by number (P2 before P10).
    std::map<int, std::map<int, std::vector<const WitnessNode*>>> byCta;
    std::map<int, int> firstThread;
    for (const auto& n : g.nodes) {
        if (n.cta < 0) {
            init.push_back(&n);
            continue;
        }
        const int t = threadNumber(n.thread);
        byCta[n.cta][t].push_back(&n);
        auto [it, fresh] = firstThread.emplace(n.cta, t);
        if (!fresh) it->second = std::min(it->second, t);
    }
    if (!init.empty()) {
        out << "  subgraph init {\n    rank=min;\n";
        for (const auto* n : init)
            writeNode(out, *n, "    ");
        out << "  }\n";
        // in declaration order, left to right
        for (std::size_t i = 0; i + 1 < init.size(); ++i)
            out << "  e" << init[i]->id << " -> e" << init[i + 1]->id << " [style=invis];\n";
    }
    std::vector<std::pair<int, int>> ctaOrder; // (first thread, cta)
    for (const auto& [cta, t] : firstThread)
        ctaOrder.emplace_back(t, cta);
    std::sort(ctaOrder.begin(), ctaOrder.end());
    std::vector<const WitnessNode*> heads; // each thread's first event, in thread order
    for (const auto& [first, cta] : ctaOrder) {
        for (const auto& [thread, nodes] : byCta[cta])
            heads.push_back(nodes.front());
        out << "  subgraph cluster_cta" << cta << " {\n    label=\"CTA " << cta << "\";\n";
        for (const auto& [thread, nodes] : byCta[cta]) {
            const std::string own = ownName(g, "P" + std::to_string(thread));
            out << "    subgraph cluster_" << cta << "_P" << thread << " {\n      label=\""
                << escape(own.empty() ? "P" + std::to_string(thread) : own) << "\";\n";
            for (const auto* n : nodes)
                writeNode(out, *n, "      ");
            out << "    }\n";
        }
        out << "  }\n";
    }
    // The initial writes above every thread. (Threads stay left to right in the order they are
    // written, P0 first: Graphviz keeps the clusters' order unless flat edges tie them.)
    if (!init.empty())
        for (const auto* h : heads)
            out << "  e" << init.back()->id << " -> e" << h->id << " [style=invis, weight=0];\n";
    // Relation edges other than po and ae do not stretch the layout (weight 0). Not
    // constraint=false: Graphviz's ranker fails ("trouble in init_rank") on some witnesses
    // whose unconstrained edges cross the thread clusters (kernel protocols, umma-1x2).
    std::set<std::string> drawn;
    for (const auto& e : g.edges) {
        drawn.insert(e.relation);
        out << "  e" << e.from << " -> e" << e.to << " [label=\"" << escape(e.relation)
            << "\", color=\"" << colourOf(e.relation) << "\", fontcolor=\"" << colourOf(e.relation)
            << "\"" << (e.highlight ? ", penwidth=3" : "")
            << (e.relation == "po"   ? ", weight=10"
                : e.relation == "ae" ? ", weight=2"
                                     : ", weight=0")
            << "];\n";
    }
    // The legend: each relation drawn, in its colour, and what a thick edge means.
    out << "  legend [shape=plaintext, fontname=\"sans-serif\", label=<<table border=\"0\" "
           "cellborder=\"0\" cellspacing=\"1\">";
    for (const auto& [name, style] : relationStyles())
        if (drawn.count(name))
            out << "<tr><td align=\"left\"><font color=\"" << style.colour << "\">" << name
                << "</font></td><td align=\"left\">" << htmlEscape(meaningOf(name, style))
                << "</td></tr>";
    out << "<tr><td align=\"left\"><b>thick</b></td><td align=\"left\">"
        << htmlEscape(g.highlightMeaning) << "</td></tr>"
        << "<tr><td align=\"left\">dashed</td><td align=\"left\">an access an asynchronous "
           "operation performs after its issue</td></tr></table>>];\n";
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
