// partingFrame: the line a location is named by, where its first use's chain parts from others.
#include "kernel/CodeNames.hpp"

#include <catch2/catch.hpp>

using namespace ptxmc::kernel;

namespace {

/** A chain, outermost first, from "file:line" frames. */
std::vector<SourceLine> chain(const std::vector<std::pair<std::string, int>>& frames) {
    std::vector<SourceLine> out;
    for (const auto& [file, line] : frames)
        out.push_back(SourceLine{file, line});
    return out;
}

std::string text(const std::optional<SourceLine>& l) {
    return l ? l->file + ":" + std::to_string(l->line) : "none";
}

} // namespace

TEST_CASE("a location is named where its chain parts from the others'", "[kernel][names]") {
    // one TMA helper (copy.hpp:185) called from two lines of the mainloop
    auto a = chain({{"kernel.cu", 40}, {"mainloop.hpp", 620}, {"copy.hpp", 185}});
    auto b = chain({{"kernel.cu", 40}, {"mainloop.hpp", 621}, {"copy.hpp", 185}});
    auto epilogue = chain({{"kernel.cu", 50}, {"epilogue.hpp", 88}, {"copy.hpp", 185}});
    CHECK(text(partingFrame(a, {a, b, epilogue})) == "mainloop.hpp:620");
    CHECK(text(partingFrame(b, {a, b, epilogue})) == "mainloop.hpp:621");
    CHECK(text(partingFrame(epilogue, {a, b, epilogue})) == "kernel.cu:50");
}

TEST_CASE("a chain another extends is named innermost, one none parts from, by no line",
          "[kernel][names]") {
    auto outer = chain({{"kernel.cu", 40}, {"mainloop.hpp", 620}});
    auto inner = chain({{"kernel.cu", 40}, {"mainloop.hpp", 620}, {"copy.hpp", 185}});
    CHECK(text(partingFrame(outer, {inner})) == "mainloop.hpp:620");
    // the same instruction names both (stages of one loop): no line tells them apart
    CHECK(text(partingFrame(inner, {inner, inner})) == "none");
}
