// Shared test fixtures: litmus text parsed into one instruction, or parsed and lowered.
#pragma once

#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"

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

/** A litmus test given as text (file t.litmus), parsed and lowered. */
inline ir::Program lowered(const std::string& text) {
    return lower::lowerTest(litmus::parseLitmus(text, "t.litmus"));
}

} // namespace ptxmc::testing
