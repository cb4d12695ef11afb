// Resolves a `--model` argument: disk first (so a user's edited copy wins), then built-ins.
#include "cli/ModelArg.hpp"

#include "cat/Loader.hpp"
#include "cat/Resolver.hpp"
#include "support/SourceLoc.hpp"

#include <filesystem>

namespace ptxmc::cli {

namespace fs = std::filesystem;

namespace {

cat::Model loadModel(const std::string& arg) {
    if (arg.empty()) return cat::loadBuiltinModel();
    std::error_code ec;
    // A path that exists is a disk file, even when it would also name a built-in model: its
    // errors (a directory, unreadable) must be reported, not papered over by the built-in.
    if (fs::exists(arg, ec)) return cat::loadModelFile(arg);
    std::string name = fs::path(arg).lexically_normal().generic_string();
    // `model/variants/q1.cat` from outside the source tree names built-in `variants/q1.cat`.
    if (name.rfind("model/", 0) == 0) {
        try {
            return cat::loadBuiltinModel(name.substr(6));
        } catch (const InputError&) {
        }
    }
    try {
        return cat::loadBuiltinModel(name);
    } catch (const InputError& builtin) {
        throw InputError(SourceLoc{arg, 0, 0}, "no such model file, and " + builtin.message());
    }
}

} // namespace

std::shared_ptr<const cat::ResolvedModel> loadModelArg(const std::string& arg) {
    return cat::resolveModel(loadModel(arg));
}

std::string modelDisplayName(const std::string& arg) {
    return arg.empty() ? "tcgen05.cat (built-in)" : arg;
}

} // namespace ptxmc::cli
