// Parsing expected.txt and finding the one that governs a test (nearest folder upwards).
#include "report/Expectations.hpp"

#include <fstream>
#include <sstream>
#include <system_error>

namespace ptxmc::report {

namespace fs = std::filesystem;

namespace {

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

// One whitespace-separated word of a line; `begin` is a 0-based index.
struct Word {
    std::size_t begin = 0;
    std::string text;
};

std::optional<Word> nextWord(const std::string& line, std::size_t& pos) {
    while (pos < line.size() && isBlank(line[pos]))
        ++pos;
    if (pos >= line.size()) return std::nullopt;
    Word w{pos, {}};
    while (pos < line.size() && !isBlank(line[pos]))
        w.text += line[pos++];
    return w;
}

std::string trimRight(std::string s) {
    while (!s.empty() && isBlank(s.back()))
        s.pop_back();
    return s;
}

// Canonical when possible, so that two spellings of one file (a/./b, symlinks) compare equal.
fs::path canonicalOf(const fs::path& p) {
    std::error_code ec;
    fs::path c = fs::weakly_canonical(fs::absolute(p), ec);
    return ec ? fs::absolute(p).lexically_normal() : c;
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
        std::optional<Word> obs = nextWord(line, pos);
        if (!obs)
            throw InputError(at(path->begin + path->text.size()),
                             "missing observation after the path (expected Never, "
                             "Sometimes, Always or Deadlock)");
        std::optional<Observation> expected = observationFromString(obs->text);
        // Unknown is an outcome, never a verdict a test may be expected to have.
        if (!expected || *expected == Observation::Unknown)
            throw InputError(at(obs->begin), "unknown observation '" + obs->text +
                                                 "' (expected Never, Sometimes, Always or "
                                                 "Deadlock)");
        std::size_t reasonAt = pos;
        while (reasonAt < line.size() && isBlank(line[reasonAt]))
            ++reasonAt;
        std::string reason = trimRight(line.substr(reasonAt));
        if (reason.empty())
            throw InputError(at(obs->begin + obs->text.size()),
                             "missing reason after the observation (a reason is "
                             "mandatory: say why the model must give this verdict)");
        fs::path relative(path->text);
        if (relative.is_absolute())
            throw InputError(at(path->begin),
                             "path '" + path->text + "' must be relative to the file's folder");
        fs::path resolved = canonicalOf(folder / relative);
        std::error_code ec;
        if (!fs::is_regular_file(resolved, ec))
            throw InputError(at(path->begin), "no such test file '" + path->text + "'");
        auto [it, fresh] = result.byPath_.emplace(resolved, result.entries_.size());
        if (!fresh)
            throw InputError(at(path->begin),
                             "duplicate entry for '" + path->text + "' (first at line " +
                                 std::to_string(result.entries_[it->second].loc.line) + ")");
        result.entries_.push_back({path->text, resolved, *expected, reason, at(path->begin)});
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
        check.reason = e->reason;
    }
    return check;
}

void applyExpectation(CheckResult& result, ExpectationCheck check) {
    check.matches = check.present && check.expected == result.observation;
    result.expectation = std::move(check);
}

} // namespace ptxmc::report
