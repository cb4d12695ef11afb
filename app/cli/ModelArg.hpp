// `--model ARG` for every subcommand: a cat file on disk, else a model built into the binary.
#pragma once

#include <memory>
#include <string>

namespace ptxmc::cat {
class ResolvedModel;
}

namespace ptxmc::cli {

/**
 * Loads and resolves the model `arg` names: empty for the built-in model/tcgen05.cat; a file
 * on disk when one exists at that path; otherwise a built-in model by its path under model/
 * (`variants/q4-kind-not-required.cat`; a leading `model/` is accepted too). Throws InputError.
 */
std::shared_ptr<const cat::ResolvedModel> loadModelArg(const std::string& arg);

/** How a model argument is named in reports: the argument, or the built-in default's name. */
std::string modelDisplayName(const std::string& arg);

} // namespace ptxmc::cli
