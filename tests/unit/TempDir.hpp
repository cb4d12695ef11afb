// Shared test fixture: a fresh folder under the system temp folder, removed at the end of the test.
#pragma once

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <system_error>

namespace ptxmc::testing {

/** Canonical from the start, so that paths the code under test resolves compare equal. */
class TempDir {
public:
    TempDir() {
        std::random_device rd;
        path_ = std::filesystem::temp_directory_path() / ("ptxmc-test-" + std::to_string(rd()));
        std::filesystem::create_directories(path_);
        path_ = std::filesystem::canonical(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    /** Writes `text` to `rel` under the folder (creating its folders); returns its path. */
    std::filesystem::path write(const std::string& rel, const std::string& text = "") const {
        std::filesystem::path p = path_ / rel;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }

private:
    std::filesystem::path path_;
};

} // namespace ptxmc::testing
