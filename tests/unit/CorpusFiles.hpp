// Shared corpus walk: every litmus test the project ships, rejected inputs (bad/) left out.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace ptxmc::testing {

/** Every `.litmus` file under litmus/ except those under bad/, sorted by path. */
inline std::vector<std::filesystem::path> corpusFiles() {
    namespace fs = std::filesystem;
    std::vector<fs::path> out;
    for (const auto& entry :
         fs::recursive_directory_iterator(fs::path(PTXMC_SOURCE_DIR) / "litmus"))
        if (entry.path().extension() == ".litmus" &&
            entry.path().string().find("/bad/") == std::string::npos)
            out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace ptxmc::testing
