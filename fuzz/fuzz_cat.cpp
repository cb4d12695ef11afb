// libFuzzer target: the cat parser, include loader and resolver must reject, never crash.
#include "cat/Loader.hpp"
#include "cat/Resolver.hpp"
#include "support/SourceLoc.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        // A built-in display name makes includes resolve among the embedded model files only:
        // the input can pull in ptx.cat or tcgen05.cat but never reads the disk.
        ptxmc::cat::Model model = ptxmc::cat::parseModelText(text, "<builtin>/fuzz.cat");
        ptxmc::cat::resolveModel(model);
    } catch (const ptxmc::InputError&) {
        // Rejected with file:line:col, as it should be.
    }
    return 0;
}
