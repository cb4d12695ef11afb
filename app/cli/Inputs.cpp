// Input expansion: deterministic order (sorted folder walks) so outputs are reproducible.
#include "cli/Inputs.hpp"

#include "support/SourceLoc.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>

namespace ptxmc::cli {

namespace fs = std::filesystem;

namespace {

class Expander {
public:
    explicit Expander(Inputs& out) : out_(out) {}

    // `from` locates the line of an index that named `p`, for error messages.
    void add(const fs::path& p, const SourceLoc& from) {
        std::error_code ec;
        if (p.filename().string().starts_with("@")) {
            addIndex(p, from);
        } else if (fs::is_directory(p, ec)) {
            addFolder(p);
        } else if (fs::is_regular_file(p, ec)) {
            out_.tests.push_back(p.lexically_normal().generic_string());
        } else {
            // On the command line the location already names the path.
            fail(from, from.line == 0 ? "no such file or folder"
                                      : "no such file or folder '" + p.generic_string() + "'");
        }
    }

private:
    void fail(const SourceLoc& loc, const std::string& message) {
        out_.errors.push_back(InputError(loc, message).what());
    }

    void addFolder(const fs::path& dir) {
        out_.folders.push_back(dir.lexically_normal().generic_string());
        std::vector<std::string> found;
        std::error_code ec;
        fs::recursive_directory_iterator it(dir, ec), end;
        for (; !ec && it != end; it.increment(ec)) {
            std::error_code typeEc;
            if (it->path().extension() == ".litmus" && it->is_regular_file(typeEc))
                found.push_back(it->path().lexically_normal().generic_string());
        }
        if (ec) fail({dir.generic_string()}, "cannot list folder: " + ec.message());
        std::sort(found.begin(), found.end());
        out_.tests.insert(out_.tests.end(), found.begin(), found.end());
    }

    void addIndex(const fs::path& index, const SourceLoc& from) {
        std::string name = index.lexically_normal().generic_string();
        std::error_code ec;
        fs::path key = fs::weakly_canonical(index, ec);
        if (std::find(stack_.begin(), stack_.end(), key) != stack_.end())
            return fail(from, "index '" + name + "' is already being read (an include cycle)");
        std::ifstream in(index);
        if (!in) return fail(from, "cannot read index file '" + name + "'");
        stack_.push_back(key);
        std::string line;
        for (int lineNo = 1; std::getline(in, line); ++lineNo) {
            std::size_t first = line.find_first_not_of(" \t\r");
            if (first == std::string::npos || line[first] == '#') continue;
            std::size_t last = line.find_last_not_of(" \t\r");
            std::string entry = line.substr(first, last - first + 1);
            add(index.parent_path() / entry, SourceLoc{name, lineNo, int(first) + 1});
        }
        stack_.pop_back();
    }

    Inputs& out_;
    std::vector<fs::path> stack_; // indexes being read, to reject cycles
};

} // namespace

Inputs expandInputs(const std::vector<std::string>& args) {
    Inputs out;
    Expander expander(out);
    for (const std::string& arg : args)
        expander.add(fs::path(arg), SourceLoc{arg});
    return out;
}

namespace {

// A positive decimal number that fits in size_t, or nothing.
std::optional<std::size_t> positiveNumber(const std::string& text) {
    if (text.empty() || text.size() > 9 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    std::size_t n = std::stoul(text);
    return n == 0 ? std::nullopt : std::optional<std::size_t>(n);
}

} // namespace

void keepShard(Inputs& inputs, const std::string& spec) {
    if (spec.empty()) return;
    const std::size_t slash = spec.find('/');
    std::optional<std::size_t> index, count;
    if (slash != std::string::npos) {
        index = positiveNumber(spec.substr(0, slash));
        count = positiveNumber(spec.substr(slash + 1));
    }
    if (!index || !count || *index > *count) {
        inputs.errors.push_back(
            InputError(SourceLoc{"--shard", 1, 1},
                       "expected I/N with 1 <= I <= N (shard I of N, e.g. 2/4), got '" + spec + "'")
                .what());
        inputs.tests.clear();
        return;
    }
    std::vector<std::string> kept;
    for (std::size_t k = *index - 1; k < inputs.tests.size(); k += *count)
        kept.push_back(inputs.tests[k]);
    inputs.tests = std::move(kept);
}

Inputs expandInputs(const std::vector<std::string>& args, const std::string& shard) {
    Inputs out = expandInputs(args);
    keepShard(out, shard);
    return out;
}

} // namespace ptxmc::cli
