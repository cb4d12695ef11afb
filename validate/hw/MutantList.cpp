// Reading the mutants file: mutation lines and the "no mutant" lines derive-mutants writes.
#include "hw/MutantList.hpp"

#include "support/SourceLoc.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace ptxmc::validate {

namespace {

std::string normalised(const std::string& path) {
    return std::filesystem::path(path).lexically_normal().generic_string();
}

/** `# litmus/x.litmus: why` -> the path and why; false for any other comment. */
bool noMutantLine(const std::string& comment, std::string& path, std::string& why) {
    const auto colon = comment.find(".litmus: ");
    if (colon == std::string::npos) return false;
    std::string head = comment.substr(0, colon + 7);
    const auto start = head.find_first_not_of(" \t");
    if (start == std::string::npos || head.find(' ', start) != std::string::npos) return false;
    path = head.substr(start);
    why = comment.substr(colon + 9);
    return true;
}

} // namespace

MutantList readMutantList(const std::string& file) {
    MutantList out;
    std::ifstream in(file);
    if (!in) throw InputError(SourceLoc{file}, "cannot read mutants file");
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        auto hash = line.find('#');
        if (hash != std::string::npos) {
            std::string path, why;
            if (noMutantLine(line.substr(hash + 1), path, why)) out.none[normalised(path)] = why;
            line.resize(hash);
        }
        std::istringstream words(line);
        std::string path, text;
        if (!(words >> path)) continue;
        if (!(words >> text)) throw InputError(SourceLoc{file, n, 1}, "expected PATH MUTATION");
        auto m = ptx::parseMutation(text);
        if (!m)
            throw InputError(SourceLoc{file, n, 1},
                             "bad mutation '" + text + "' (KIND:Pn:i, KIND drop|relax|cta|read)");
        out.mutations.emplace(normalised(path), *m);
    }
    return out;
}

} // namespace ptxmc::validate
