// Prints an extracted kernel program as a litmus test (`ptxmc kernel --emit-litmus`).
#include "kernel/Extract.hpp"
#include "ptx/Print.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace ptxmc::kernel {

namespace {

std::string declText(const litmus::LocationDecl& d) {
    std::string ctas;
    for (int c : d.ctas)
        ctas += (ctas.empty() ? "" : ",") + std::to_string(c);
    switch (d.space) {
    case ir::Space::Shared:
        return d.name + " @ shared " + ctas;
    case ir::Space::Mbarrier:
        return d.name + " @ mbarrier " + ctas;
    case ir::Space::Tmem:
        return d.name + " @ tmem " + ctas + (d.rows > 1 ? ", rows " + std::to_string(d.rows) : "");
    case ir::Space::None:
    case ir::Space::Global:
        return d.name + " = 0" + (d.bytes ? ", bytes " + std::to_string(*d.bytes) : "");
    }
    return d.name;
}

/** printOperand, and a tensor copy's tile with its coordinates: `[A, {0, 64}]`. */
std::string operandText(const litmus::Operand& o) {
    if (o.kind != litmus::Operand::Kind::Memory || o.elements.empty()) return ptx::printOperand(o);
    std::string s = "[" + o.name + (o.cta ? "@" + std::to_string(*o.cta) : "") + ", {";
    for (std::size_t i = 0; i < o.elements.size(); ++i)
        s += (i ? ", " : "") + ptx::printOperand(o.elements[i]);
    return s + "}]";
}

std::string cellText(const litmus::Instruction& in) {
    std::string s;
    if (in.guard) s += std::string("@") + (in.guard->negated ? "!" : "") + in.guard->reg + " ";
    s += in.opcode;
    for (std::size_t i = 0; i < in.operands.size(); ++i)
        s += (i ? ", " : " ") + operandText(in.operands[i]);
    return s;
}

} // namespace

std::string renderLitmus(const KernelProgram& k) {
    const litmus::Test& t = k.test;
    std::string out = "PTX " + t.name + "\n";
    out += fmt::format("\"Extracted by ptxmc kernel from {}: one thread per warp that "
                       "synchronizes, its locations the mbarriers and async buffers it uses.\"\n",
                       t.file);
    for (std::size_t i = 0; i < k.threadNames.size(); ++i)
        out += fmt::format("\"P{}: {}\"\n", i, k.threadNames[i]);
    out += "{\n";
    for (const auto& d : t.locations)
        out += "  " + declText(d) + ";\n";
    out += "}\n";
    std::vector<std::vector<std::string>> cols;
    std::vector<std::string> header;
    for (const litmus::Thread& th : t.threads) {
        std::string h = fmt::format("P{}@cta {},gpu {}", th.id, th.cta, th.gpu);
        if (th.cluster) h += fmt::format(",cluster {}", *th.cluster);
        header.push_back(h);
        std::vector<std::string> cells;
        for (const auto& in : th.code)
            cells.push_back(cellText(in));
        cols.push_back(cells);
    }
    std::size_t rows = 0;
    std::vector<std::size_t> width(cols.size(), 0);
    for (std::size_t c = 0; c < cols.size(); ++c) {
        rows = std::max(rows, cols[c].size());
        width[c] = header[c].size();
        for (const auto& s : cols[c])
            width[c] = std::max(width[c], s.size());
    }
    for (std::size_t r = 0; r <= rows; ++r) {
        std::string line = " ";
        for (std::size_t c = 0; c < cols.size(); ++c) {
            std::string cell = r == 0 ? header[c] : (r - 1 < cols[c].size() ? cols[c][r - 1] : "");
            cell.resize(width[c], ' ');
            line += (c ? " | " : "") + cell;
        }
        out += line + " ;\n";
    }
    out += "exists (true)\n";
    return out;
}

} // namespace ptxmc::kernel
