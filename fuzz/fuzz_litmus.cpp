// libFuzzer target: the litmus parser and the lowering to events must reject, never crash.
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "support/SourceLoc.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        ptxmc::litmus::Test test = ptxmc::litmus::parseLitmus(text, "fuzz.litmus");
        // Lowering is where names, qualifiers and operands are checked: part of "parsing" for
        // the user, and it needs no solver, so it is cheap enough for this target.
        ptxmc::lower::lowerTest(test);
    } catch (const ptxmc::InputError&) {
        // The one way a bad input may end; anything else escapes and the fuzzer reports it.
    }
    return 0;
}
