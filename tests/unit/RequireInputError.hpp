// Shared assertion: an action must throw InputError at file:line:col with a given message part.
#pragma once

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

} // namespace ptxmc::testing
