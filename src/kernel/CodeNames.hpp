// The line of the code each location of a kernel is named by: where its first use's chain of
// inlined call sites parts from those of the other locations of its kind.
#pragma once

#include "kernel/Module.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::kernel {

struct KernelProgram;

/** How the code names a location: its kind and the line that tells it from the others. */
struct CodeName {
    std::string kind; ///< "barrier", "buffer", "tensor memory", "global tile"
    SourceLine line;  ///< file 0-length: the first use has no `.loc`
};

/**
 * For each location with a first use, the frame of that use's chain (its `.loc` and the call
 * sites it was inlined at, outermost first) where it parts from the first-use chains of the
 * other locations of its kind; the innermost frame outside the toolkit when no other differs.
 */
std::map<std::string, CodeName> codeNames(const KernelProgram& k);

/**
 * The frame of `chain` (outermost first) that tells it from each of `others`' that differs:
 * the frame at the deepest point where one of them leaves it (its innermost frame when it ends
 * there); nullopt when none differs.
 */
std::optional<SourceLine> partingFrame(const std::vector<SourceLine>& chain,
                                       const std::vector<std::vector<SourceLine>>& others);

} // namespace ptxmc::kernel
