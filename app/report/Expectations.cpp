// Parsing expected.txt and finding the one that governs a test (nearest folder upwards).
#include "report/Expectations.hpp"

#include "report/Answer.hpp"
#include "report/ExpectationFields.hpp"

#include <fstream>
#include <sstream>
#include <system_error>

namespace ptxmc::report {

namespace fs = std::filesystem;
using detail::LineFields;
using detail::nextWord;
using detail::Word;

namespace {

// Canonical when possible, so that two spellings of one file (a/./b, symlinks) compare equal.
fs::path canonicalOf(const fs::path& p) {
    std::error_code ec;
    fs::path c = fs::weakly_canonical(fs::absolute(p), ec);
    return ec ? fs::absolute(p).lexically_normal() : c;
}

// The canonical test file a line's path names, relative to the file's folder.
fs::path resolveTestPath(const Word& path, const fs::path& folder, const SourceLoc& loc) {
    fs::path relative(path.text);
    if (relative.is_absolute())
        throw InputError(loc, "path '" + path.text + "' must be relative to the file's folder");
    fs::path resolved = canonicalOf(folder / relative);
    std::error_code ec;
    if (!fs::is_regular_file(resolved, ec))
        throw InputError(loc, "no such test file '" + path.text + "'");
    return resolved;
}

} // namespace

std::string variantFileName(const std::string& variant) {
    return "expected." + variant + ".txt";
}

std::string variantOfModel(const std::string& modelArg) {
    if (modelArg.empty()) return {};
    fs::path p(modelArg);
    return p.extension() == ".cat" ? p.stem().string() : p.filename().string();
}

std::string displayPath(const fs::path& p) {
    if (p.is_relative()) return p.lexically_normal().generic_string();
    std::error_code ec;
    fs::path cwd = fs::current_path(ec);
    if (!ec) {
        fs::path rel = p.lexically_relative(cwd);
        if (!rel.empty() && *rel.begin() != "..") return rel.generic_string();
    }
    return p.generic_string();
}

ExpectationFile ExpectationFile::load(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw InputError({file.generic_string()}, "cannot read expectations file");
    std::ostringstream text;
    text << in.rdbuf();
    return parse(text.str(), file);
}

ExpectationFile ExpectationFile::parse(const std::string& text, const fs::path& file) {
    ExpectationFile result;
    result.path_ = file;
    std::string name = displayPath(file);
    fs::path folder = fs::absolute(file).parent_path();
    std::istringstream lines(text);
    std::string line;
    int lineNo = 0;
    while (std::getline(lines, line)) {
        ++lineNo;
        auto at = [&](std::size_t index) { return SourceLoc{name, lineNo, int(index) + 1}; };
        std::size_t pos = 0;
        std::optional<Word> path = nextWord(line, pos);
        if (!path || path->text[0] == '#') continue;
        LineFields fields = detail::parseFields(line, pos, *path, at);
        fs::path resolved = resolveTestPath(*path, folder, at(path->begin));
        auto [it, fresh] = result.byPath_.emplace(resolved, result.entries_.size());
        if (!fresh)
            throw InputError(at(path->begin),
                             "duplicate entry for '" + path->text + "' (first at line " +
                                 std::to_string(result.entries_[it->second].loc.line) + ")");
        result.entries_.push_back({path->text, resolved, fields.expected, std::move(fields.flags),
                                   fields.states, std::move(fields.reason), at(path->begin)});
    }
    return result;
}

const ExpectationEntry* ExpectationFile::find(const fs::path& canonicalTest) const {
    auto it = byPath_.find(canonicalTest);
    return it == byPath_.end() ? nullptr : &entries_[it->second];
}

std::optional<fs::path> ExpectationIndex::governingFile(const fs::path& test) {
    fs::path start = canonicalOf(test).parent_path();
    // Remember every folder on the way, so a corpus walks each folder once.
    std::vector<fs::path> visited;
    std::optional<fs::path> found;
    for (fs::path dir = start;; dir = dir.parent_path()) {
        if (auto it = governing_.find(dir); it != governing_.end()) {
            found = it->second;
            break;
        }
        visited.push_back(dir);
        std::error_code ec;
        fs::path candidate = dir / kExpectationsFileName;
        if (fs::is_regular_file(candidate, ec)) {
            found = candidate;
            break;
        }
        if (dir == dir.root_path() || dir.parent_path() == dir) break;
    }
    for (const fs::path& dir : visited)
        governing_[dir] = found;
    return found;
}

const ExpectationFile& ExpectationIndex::file(const fs::path& expectedTxt) {
    fs::path key = canonicalOf(expectedTxt);
    auto it = files_.find(key);
    if (it == files_.end()) it = files_.emplace(key, ExpectationFile::load(key)).first;
    return it->second;
}

const ExpectationFile* ExpectationIndex::variantFile(const fs::path& expectedTxt) {
    fs::path candidate = canonicalOf(expectedTxt).parent_path() / variantFileName(variant_);
    std::error_code ec;
    if (!fs::is_regular_file(candidate, ec)) return nullptr;
    return &file(candidate);
}

ExpectationCheck ExpectationIndex::lookup(const fs::path& test) {
    ExpectationCheck check;
    std::optional<fs::path> governing = governingFile(test);
    if (!governing) return check;
    check.governed = true;
    const ExpectationFile* f = &file(*governing);
    fs::path canonicalTest = canonicalOf(test);
    // A variant file lists only the tests whose verdict the variant changes.
    if (!variant_.empty())
        if (const ExpectationFile* v = variantFile(*governing); v && v->find(canonicalTest)) f = v;
    check.file = displayPath(f->path());
    if (const ExpectationEntry* e = f->find(canonicalTest)) {
        check.present = true;
        check.expected = e->expected;
        check.expectedFlags = e->flags;
        check.expectedStates = e->states;
        check.reason = e->reason;
    }
    return check;
}

void applyExpectation(CheckResult& result, ExpectationCheck check) {
    check.matches = check.present && check.expected == result.observation &&
                    check.expectedFlags == flagNames(result.flags) &&
                    check.expectedStates == result.states.size();
    result.expectation = std::move(check);
}

} // namespace ptxmc::report
