// Prints a draft in the litmus/README.md format, columns aligned as in the corpus.
#include "gen/Draft.hpp"

#include <algorithm>

namespace ptxmc::gen {

namespace {

std::string joined(const std::vector<std::int64_t>& values, const char* sep) {
    std::string s;
    for (std::int64_t v : values)
        s += (s.empty() ? "" : sep) + std::to_string(v);
    return s;
}

/** One init-block entry (aliases are printed by the caller, after every root). */
std::string declaration(const Loc& l) {
    std::string ctas;
    for (int c : l.ctas)
        ctas += (ctas.empty() ? "" : ",") + std::to_string(c);
    const std::string vals = l.rows > 1 ? "{" + joined(l.init, ", ") + "}" : joined(l.init, "");
    switch (l.space) {
    case Space::None:
    case Space::Global:
        return l.name + " = " + vals;
    case Space::Shared:
        return l.name + " @ shared " + ctas + " = " + vals;
    case Space::Tmem:
        return l.name + " @ tmem " + ctas + (l.rows > 1 ? ", rows " + std::to_string(l.rows) : "") +
               " = " + vals;
    case Space::Mbarrier:
        break;
    }
    return l.name + " @ mbarrier " + ctas +
           (l.programInit ? "" : ", count " + std::to_string(l.count));
}

} // namespace

std::string Draft::summary() const {
    std::string features;
    auto note = [&](const char* prefix, const char* what) {
        for (const auto& t : threads_)
            for (const auto& c : t.code)
                if (c.rfind(prefix, 0) == 0) {
                    features += std::string(features.empty() ? "; " : ", ") + what;
                    return;
                }
    };
    note("tcgen05", "tcgen05");
    note("mbarrier", "mbarrier");
    note("cp.async", "bulk copy");
    note("fence.proxy", "proxy fence");
    note("bar", "bar.sync");
    return "random test: " + std::to_string(threads()) + " thread(s), " + std::to_string(nCtas_) +
           " CTA(s)" + (cluster_ ? " in one cluster" : "") + features;
}

std::string Draft::codeTable() const {
    std::vector<std::vector<std::string>> cols;
    std::size_t rows = 0;
    for (int t = 0; t < threads(); ++t) {
        const ThreadDraft& td = threads_[static_cast<std::size_t>(t)];
        std::vector<std::string> col{"P" + std::to_string(t) + "@cta " + std::to_string(td.cta) +
                                     (cluster_ ? ",cluster 0" : "") + ",gpu " +
                                     std::to_string(td.cta == 1 ? gpu1_ : 0)};
        col.insert(col.end(), td.code.begin(), td.code.end());
        rows = std::max(rows, col.size());
        cols.push_back(col);
    }
    std::vector<std::size_t> widths;
    for (const auto& col : cols) {
        std::size_t w = 0;
        for (const auto& s : col)
            w = std::max(w, s.size());
        widths.push_back(w);
    }
    std::string out;
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < cols.size(); ++c) {
            std::string cell = r < cols[c].size() ? cols[c][r] : ""; // empty: no instruction
            cell.resize(widths[c], ' ');
            out += (c ? " | " : " ") + cell;
        }
        out += " ;\n";
    }
    return out;
}

std::string Draft::render(const std::string& name, const std::string& condition) const {
    std::string out = "PTX " + name + "\n\"" + summary() + "\"\n{\n";
    for (const auto& l : locs_)
        if (l.aliasOf < 0) out += "  " + declaration(l) + ";\n";
    for (const auto& l : locs_)
        if (l.aliasOf >= 0)
            out += "  " + l.name + " @ " + l.proxy + " aliases " + loc(l.aliasOf).name + ";\n";
    for (const auto& [t, r, v] : regInits_)
        out += "  P" + std::to_string(t) + ":" + r + " = " + std::to_string(v) + ";\n";
    return out + "}\n" + codeTable() + condition + "\n";
}

} // namespace ptxmc::gen
