// A kernel finding's locations in the code's terms: the line that names each, its first use.
#include "cli/KernelLocations.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace ptxmc::cli {

namespace {

/** Whether `text` holds `name` as a whole word ("(write response_0)" holds response_0). */
bool namesWord(const std::string& text, const std::string& name) {
    auto isPart = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
        const std::size_t end = at + name.size();
        if ((at == 0 || !isPart(text[at - 1])) && (end == text.size() || !isPart(text[end])))
            return true;
    }
    return false;
}

/** `copy.hpp` of `/usr/include/cute/copy.hpp`: the file a line is named in, short. */
std::string baseName(const std::string& path) {
    return path.substr(path.find_last_of('/') == std::string::npos ? 0
                                                                   : path.find_last_of('/') + 1);
}

/** The length-prefixed names of a mangled nested name from `at` (`7cutlass4smemE`), joined. */
std::string nestedNames(const std::string& m, std::size_t at) {
    std::string out;
    while (at < m.size() && std::isdigit(static_cast<unsigned char>(m[at]))) {
        std::size_t len = 0;
        while (at < m.size() && std::isdigit(static_cast<unsigned char>(m[at])))
            len = len * 10 + static_cast<std::size_t>(m[at++] - '0');
        if (at + len > m.size()) return "";
        out += (out.empty() ? "" : "::") + m.substr(at, len);
        at += len;
    }
    return at < m.size() && m[at] == 'E' ? out : "";
}

} // namespace

std::vector<std::string> locationsOf(const engine::RaisedFlag& f, const kernel::KernelProgram& k) {
    std::vector<std::string> out;
    auto add = [&out](const std::string& name) {
        if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    };
    for (const auto& w : f.witnesses)
        for (const auto& e : w) {
            if (!e.barrier.empty()) add(e.barrier);
            auto at = k.locationsAt.find(e.loc.line);
            if (at == k.locationsAt.end()) continue;
            for (const std::string& name : at->second)
                if (namesWord(e.text, name)) add(name);
        }
    return out;
}

/**
 * `cutlass::smem+384` of `_ZN7cutlass4smemE_384`: the variable and the byte offset a location
 * starts at. A buffer's suffix is that offset; an mbarrier's is its 8-byte slot (`_7`: +56).
 */
std::string readableName(const std::string& name, bool slot) {
    std::size_t cut = name.rfind("E_");
    if (name.rfind("_ZN", 0) != 0 || cut == std::string::npos) return "";
    const std::string offset = name.substr(cut + 2);
    if (offset.empty() || offset.size() > 15 ||
        !std::all_of(offset.begin(), offset.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        return "";
    const std::string variable = nestedNames(name.substr(0, cut + 1), 3);
    if (variable.empty()) return "";
    return variable + "+" + (slot ? std::to_string(std::stoull(offset) * 8) : offset);
}

std::string firstUseText(const std::string& name, const kernel::KernelProgram& k,
                         const std::map<std::string, kernel::CodeName>& names) {
    auto use = k.firstUse.find(name);
    if (use == k.firstUse.end()) return name;
    const auto& [loc, opcode] = use->second;
    auto named = names.find(name);
    const bool slot = named != names.end() && named->second.kind == "barrier";
    std::string readable = readableName(name, slot);
    std::string text = name + (readable.empty() ? "" : " (" + readable + ")") + ": ";
    if (named != names.end())
        text += fmt::format("the {} first named at {}:{}, by ", named->second.kind,
                            baseName(named->second.line.file), named->second.line.line);
    else
        text += "first named by ";
    auto cuda = k.cudaLines.find(loc.line);
    return text + fmt::format("{} at {}{}", opcode, loc.str(),
                              cuda != k.cudaLines.end()
                                  ? " (" + kernel::cudaText(cuda->second) + ")"
                                  : std::string());
}

nlohmann::ordered_json sourcesJson(int ptxLine, const kernel::KernelProgram& k) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    auto cuda = k.cudaLines.find(ptxLine);
    if (cuda != k.cudaLines.end())
        for (const kernel::SourceLine& f : cuda->second.frames())
            out.push_back({{"file", f.file}, {"line", f.line}});
    return out;
}

nlohmann::ordered_json firstUseJson(const std::string& name, const kernel::KernelProgram& k,
                                    const std::map<std::string, kernel::CodeName>& names) {
    nlohmann::ordered_json j{{"name", name}};
    auto use = k.firstUse.find(name);
    if (use == k.firstUse.end()) return j;
    const auto& [loc, opcode] = use->second;
    j["first_named_by"] = opcode;
    j["ptx"] = loc.str();
    j["sources"] = sourcesJson(loc.line, k);
    if (auto named = names.find(name); named != names.end())
        j["named_at"] = {{"kind", named->second.kind},
                         {"file", named->second.line.file},
                         {"line", named->second.line.line}};
    return j;
}

} // namespace ptxmc::cli
