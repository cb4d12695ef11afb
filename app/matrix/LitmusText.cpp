// Lays a generated test out like the hand-written corpus: padded columns, one row per line.
#include "matrix/LitmusText.hpp"

#include <algorithm>

namespace ptxmc::matrix {

void LitmusText::add(std::size_t tid, const std::string& instruction) {
    if (threads.size() <= tid) threads.resize(tid + 1);
    threads[tid].push_back(instruction);
}

std::string LitmusText::text() const {
    std::string out = "PTX " + name + "\n";
    for (const std::string& d : descriptions)
        out += "\"" + d + "\"\n";
    out += "{\n";
    for (const std::string& e : init)
        out += "  " + e + ";\n";
    out += "}\n";
    // Row 0 is the thread header; every column is padded to its widest cell.
    std::size_t rows = 0;
    std::vector<std::size_t> width(threads.size(), 0);
    std::vector<std::string> header;
    for (std::size_t t = 0; t < threads.size(); ++t) {
        header.push_back("P" + std::to_string(t) + "@cta 0,gpu 0");
        rows = std::max(rows, threads[t].size());
        width[t] = header[t].size();
        for (const std::string& i : threads[t])
            width[t] = std::max(width[t], i.size());
    }
    for (std::size_t r = 0; r <= rows; ++r) {
        std::string line = " ";
        for (std::size_t t = 0; t < threads.size(); ++t) {
            const std::string* cell = nullptr;
            if (r == 0)
                cell = &header[t];
            else if (r - 1 < threads[t].size())
                cell = &threads[t][r - 1];
            std::string text = cell ? *cell : "";
            text.resize(width[t], ' ');
            line += (t == 0 ? "" : " | ") + text;
        }
        out += line + " ;\n";
    }
    out += condition + "\n";
    return out;
}

} // namespace ptxmc::matrix
