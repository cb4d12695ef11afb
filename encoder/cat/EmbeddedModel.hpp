// The model files compiled into the binary (generated from model/ at build time).
#pragma once

#include <string>
#include <vector>

namespace ptxmc::cat {

struct EmbeddedFile {
    std::string path; ///< path under model/, e.g. "ptx.cat" or "variants/q1-acquire-orders.cat"
    std::string content;
};

/** Every .cat file under model/, sorted by path. */
const std::vector<EmbeddedFile>& embeddedModelFiles();

} // namespace ptxmc::cat
