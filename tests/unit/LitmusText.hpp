// Shared test fixtures: litmus text parsed into one instruction, or parsed and lowered.
#pragma once

#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace ptxmc::testing {

/** `text` as the one instruction of a one-thread test (the test is kept alive). */
inline litmus::Instruction parseInsn(const std::string& text) {
    static std::vector<litmus::Test> keep;
    keep.push_back(litmus::parseLitmus(
        "PTX t\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n " + text + " ;\nexists (x == 0)\n", "t.litmus"));
    return keep.back().threads.at(0).code.at(0);
}

/** The text of a test of `warps.size()` warps of one CTA, each with its column of instructions
 *  (one a row, "" none), locations `init`, condition `exists (true)`. */
inline std::string oneCtaWarps(const std::string& name, const std::string& init,
                               const std::vector<std::vector<std::string>>& warps) {
    std::string text = "PTX " + name + "\n{\n" + init + "\n}\n";
    std::size_t rows = 0;
    for (std::size_t w = 0; w < warps.size(); ++w) {
        text += (w == 0 ? " P" : " | P") + std::to_string(w) + "@cta 0,gpu 0";
        rows = std::max(rows, warps[w].size());
    }
    text += " ;\n";
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t w = 0; w < warps.size(); ++w)
            text += (w == 0 ? " " : " | ") + (r < warps[w].size() ? warps[w][r] : std::string());
        text += " ;\n";
    }
    return text + "exists (true)\n";
}

/** A litmus test given as text (file t.litmus), parsed and lowered. */
inline ir::Program lowered(const std::string& text) {
    return lower::lowerTest(litmus::parseLitmus(text, "t.litmus"));
}

} // namespace ptxmc::testing
