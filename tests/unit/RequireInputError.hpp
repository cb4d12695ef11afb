// Shared assertions: an action (parsing or lowering litmus text) throws InputError at
// file:line:col.
#pragma once

#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "support/SourceLoc.hpp"

#include <catch2/catch.hpp>
#include <functional>
#include <string>

namespace ptxmc::testing {

inline void requireInputError(const std::function<void()>& action, const std::string& input,
                              const std::string& file, int line, int col, const std::string& part) {
    INFO("input:\n" << input);
    try {
        action();
    } catch (const InputError& e) {
        INFO("error: " << e.what());
        CHECK(e.loc().file == file);
        CHECK(e.loc().line == line);
        CHECK(e.loc().col == col);
        CHECK_THAT(e.message(), Catch::Contains(part));
        return;
    }
    FAIL("no error was reported");
}

/** Parsing `text` as the litmus file t.litmus fails at line:col, the message containing `part`. */
inline void requireLitmusError(const std::string& text, int line, int col,
                               const std::string& part) {
    requireInputError([&] { litmus::parseLitmus(text, "t.litmus"); }, text, "t.litmus", line, col,
                      part);
}

/** Parsing `text` (t.litmus) succeeds, lowering it fails at line:col with `part`. */
inline void requireLoweringError(const std::string& text, int line, int col,
                                 const std::string& part) {
    requireInputError([&] { lower::lowerTest(litmus::parseLitmus(text, "t.litmus")); }, text,
                      "t.litmus", line, col, part);
}

} // namespace ptxmc::testing
