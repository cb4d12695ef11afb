// Model loading: reads files (disk or built-in), parses them and inlines `include`s depth-first.
#include "cat/Loader.hpp"

#include "cat/EmbeddedModel.hpp"
#include "cat/Parser.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <system_error>
#include <utility>
#include <vector>

namespace ptxmc::cat {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kBuiltinPrefix = "<builtin>/";

/** One file to parse: where it came from decides how its includes are looked up. */
struct Source {
    bool builtin = false;
    std::string display; ///< name in SourceLocs and Model::files
    std::string key;     ///< identity for cycle/diamond detection
    fs::path dir;        ///< disk: its directory; built-in: its directory under model/
    std::string text;
};

const EmbeddedFile* findBuiltin(const std::string& path) {
    for (const EmbeddedFile& f : embeddedModelFiles())
        if (f.path == path) return &f;
    return nullptr;
}

/** `p` normalized as a path under model/, or nothing when it is absolute or escapes model/. */
std::optional<std::string> builtinPath(const fs::path& p) {
    if (p.is_absolute()) return std::nullopt;
    std::string norm = p.lexically_normal().generic_string();
    if (norm.empty() || norm == "." || norm == ".." || norm.rfind("../", 0) == 0)
        return std::nullopt;
    return norm;
}

Source builtinSource(const EmbeddedFile& f) {
    Source s;
    s.builtin = true;
    s.display = std::string(kBuiltinPrefix) + f.path;
    s.key = s.display;
    s.dir = fs::path(f.path).parent_path();
    s.text = f.content;
    return s;
}

/** Identity of a disk file: its canonical path when it can be computed, else the path as given. */
std::string diskKey(const fs::path& p) {
    std::error_code ec;
    fs::path canon = fs::weakly_canonical(p, ec);
    return "disk:" + (ec ? p.lexically_normal().string() : canon.string());
}

std::optional<std::string> readDiskFile(const fs::path& p) {
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) return std::nullopt;
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream buf;
    buf << in.rdbuf();
    if (in.bad()) return std::nullopt;
    return buf.str();
}

Source diskSource(const fs::path& p, std::string text) {
    Source s;
    s.display = p.string();
    s.key = diskKey(p);
    s.dir = p.parent_path();
    s.text = std::move(text);
    return s;
}

class Loader {
public:
    Model load(const Source& top) {
        include(top, SourceLoc{}, /*isTop=*/true);
        return std::move(model_);
    }

private:
    void include(const Source& src, const SourceLoc& from, bool isTop) {
        for (std::size_t i = 0; i < chain_.size(); ++i) {
            if (chain_[i].first != src.key) continue;
            std::string cycle;
            for (std::size_t j = i; j < chain_.size(); ++j)
                cycle += chain_[j].second + " -> ";
            throw InputError(from, "include cycle: " + cycle + src.display);
        }
        // Diamond: a file reached again off the current chain is already in the model.
        if (!seen_.insert(src.key).second) return;
        if (static_cast<int>(chain_.size()) >= kMaxNesting)
            throw InputError(from, "includes nested more than " + std::to_string(kMaxNesting) +
                                       " levels deep");

        model_.files.push_back(src.display);
        ParsedFile parsed = parseFile(src.text, src.display);
        if (isTop) model_.title = parsed.title;

        chain_.emplace_back(src.key, src.display);
        for (FileItem& item : parsed.items) {
            if (auto* stmt = std::get_if<Stmt>(&item)) {
                model_.stmts.push_back(std::move(*stmt));
            } else {
                const auto& inc = std::get<IncludeDirective>(item);
                include(resolve(src, inc), inc.loc, false);
            }
        }
        chain_.pop_back();
    }

    /** Finds an included file: beside the including file first, then among the built-ins. */
    static Source resolve(const Source& from, const IncludeDirective& inc) {
        const fs::path rel(inc.path);
        std::vector<std::string> builtinCandidates;
        std::string lookedIn;
        if (from.builtin) {
            if (auto p = builtinPath(from.dir / rel)) builtinCandidates.push_back(*p);
            lookedIn = "beside " + from.display;
        } else {
            const fs::path candidate = (from.dir / rel).lexically_normal();
            if (auto text = readDiskFile(candidate)) return diskSource(candidate, std::move(*text));
            lookedIn = "'" + candidate.string() + "'";
        }
        if (auto p = builtinPath(rel)) builtinCandidates.push_back(*p);
        for (const std::string& path : builtinCandidates)
            if (const EmbeddedFile* f = findBuiltin(path)) return builtinSource(*f);
        throw InputError(inc.loc, "cannot find included file \"" + inc.path + "\" (looked " +
                                      (from.builtin ? lookedIn : "for " + lookedIn) +
                                      " and among the built-in model files)");
    }

    Model model_;
    std::vector<std::pair<std::string, std::string>> chain_; ///< (key, display) being included
    std::set<std::string> seen_;
};

} // namespace

Model parseModelText(const std::string& text, const std::string& file) {
    Source top;
    if (file.rfind(kBuiltinPrefix, 0) == 0) {
        // Text of a built-in under its display name: includes resolve inside model/.
        top.builtin = true;
        top.display = file;
        top.key = file;
        top.dir = fs::path(file.substr(kBuiltinPrefix.size())).parent_path();
    } else {
        top.display = file.empty() ? std::string("<input>") : file;
        top.key = file.empty() ? std::string("<input>") : diskKey(file);
        top.dir = fs::path(file).parent_path();
    }
    top.text = text;
    return Loader().load(top);
}

Model loadModelFile(const std::string& path) {
    std::optional<std::string> text = readDiskFile(path);
    if (!text) {
        std::error_code ec;
        const char* why = !fs::exists(path, ec)        ? "no such file"
                          : fs::is_directory(path, ec) ? "is a directory"
                                                       : "cannot be read";
        throw InputError(SourceLoc{path, 0, 0}, std::string("cannot load model file: ") + why);
    }
    return Loader().load(diskSource(path, std::move(*text)));
}

Model loadBuiltinModel(const std::string& name) {
    const EmbeddedFile* f = nullptr;
    if (auto p = builtinPath(name)) f = findBuiltin(*p);
    if (!f) {
        std::string known;
        for (const EmbeddedFile& e : embeddedModelFiles())
            known += (known.empty() ? "" : ", ") + e.path;
        throw InputError(SourceLoc{std::string(kBuiltinPrefix) + name, 0, 0},
                         "no built-in model named '" + name + "' (available: " +
                             (known.empty() ? std::string("none") : known) + ")");
    }
    return Loader().load(builtinSource(*f));
}

} // namespace ptxmc::cat
