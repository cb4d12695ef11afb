// Parsing the fields after the path of an expected.txt line, each error at its field.
#include "report/ExpectationFields.hpp"

#include "report/Answer.hpp"

#include <algorithm>
#include <charconv>

namespace ptxmc::report::detail {

namespace {

constexpr const char* kFlagsForm = "flags=none or flags=NAME[,NAME...]";
constexpr const char* kStatesForm = "states=N";

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

std::size_t endOf(const Word& w) {
    return w.begin + w.text.size();
}

std::string trimRight(std::string s) {
    while (!s.empty() && isBlank(s.back()))
        s.pop_back();
    return s;
}

// The observation word, checked: Never, Sometimes, Always or Deadlock.
Word parseObservation(const std::string& line, std::size_t& pos, const Word& path,
                      const LocAt& at) {
    std::optional<Word> obs = nextWord(line, pos);
    if (!obs)
        throw InputError(at(endOf(path)), "missing observation after the path (expected Never, "
                                          "Sometimes, Always or Deadlock)");
    std::optional<Observation> expected = observationFromString(obs->text);
    // Unknown is an outcome, never a verdict a test may be expected to have.
    if (!expected || *expected == Observation::Unknown)
        throw InputError(at(obs->begin), "unknown observation '" + obs->text +
                                             "' (expected Never, Sometimes, Always or Deadlock)");
    return *obs;
}

// The next word, which must be `key=...`; `previous` names the field before it.
Word keyedField(const std::string& line, std::size_t& pos, const Word& before,
                const std::string& previous, const std::string& key, const std::string& form,
                const LocAt& at) {
    std::optional<Word> w = nextWord(line, pos);
    if (!w) throw InputError(at(endOf(before)), "missing " + form + " after the " + previous);
    if (!w->text.starts_with(key + "="))
        throw InputError(at(w->begin),
                         "expected " + form + " after the " + previous + ", got '" + w->text + "'");
    return *w;
}

void checkFlagName(const Word& name, const std::vector<Word>& before, const LocAt& at) {
    if (name.text.empty())
        throw InputError(at(name.begin), "empty flag name (flags= separates names with one comma)");
    if (name.text == "none")
        throw InputError(at(name.begin), "'none' cannot be listed with other flags");
    auto bad = std::find_if_not(name.text.begin(), name.text.end(), isFlagNameChar);
    if (bad != name.text.end())
        throw InputError(at(name.begin + (bad - name.text.begin())),
                         "bad flag name '" + name.text + "' (letters, digits, '_' and '-' only)");
    if (before.empty()) return;
    const std::string& last = before.back().text;
    if (name.text == last) throw InputError(at(name.begin), "duplicate flag '" + name.text + "'");
    if (name.text < last)
        throw InputError(at(name.begin),
                         "flags must be sorted: '" + name.text + "' comes before '" + last + "'");
}

// `flags=none` or `flags=a,b`: each name with its position in the line.
std::vector<Word> parseFlags(const Word& field, const LocAt& at) {
    const std::size_t valueAt = field.begin + std::string("flags=").size();
    const std::string value = field.text.substr(valueAt - field.begin);
    if (value.empty())
        throw InputError(at(valueAt), "empty flags= (write flags=none when no flag is raised)");
    if (value == "none") return {};
    std::vector<Word> names;
    for (std::size_t start = 0;;) {
        std::size_t comma = value.find(',', start);
        std::size_t length = comma == std::string::npos ? std::string::npos : comma - start;
        Word name{valueAt + start, value.substr(start, length)};
        checkFlagName(name, names, at);
        names.push_back(name);
        if (comma == std::string::npos) return names;
        start = comma + 1;
    }
}

std::size_t parseStates(const Word& field, Observation expected, const LocAt& at) {
    const std::size_t valueAt = field.begin + std::string("states=").size();
    const std::string value = field.text.substr(valueAt - field.begin);
    std::size_t n = 0;
    const char* end = value.data() + value.size();
    auto [stop, ec] = std::from_chars(value.data(), end, n);
    if (value.empty() || ec != std::errc() || stop != end)
        throw InputError(at(valueAt),
                         "bad state count '" + value + "' (expected states=N, N a whole number)");
    if (expected == Observation::Deadlock && n != 0)
        throw InputError(at(valueAt), "a Deadlock test has no final state: write states=0");
    return n;
}

// Does the reason name the flag as a word of its own (not inside a longer flag name)?
bool mentions(const std::string& reason, const std::string& name) {
    for (std::size_t i = reason.find(name); i != std::string::npos; i = reason.find(name, i + 1)) {
        std::size_t end = i + name.size();
        bool alone = (i == 0 || !isFlagNameChar(reason[i - 1])) &&
                     (end == reason.size() || !isFlagNameChar(reason[end]));
        if (alone) return true;
    }
    return false;
}

} // namespace

std::optional<Word> nextWord(const std::string& line, std::size_t& pos) {
    while (pos < line.size() && isBlank(line[pos]))
        ++pos;
    if (pos >= line.size()) return std::nullopt;
    Word w{pos, {}};
    while (pos < line.size() && !isBlank(line[pos]))
        w.text += line[pos++];
    return w;
}

LineFields parseFields(const std::string& line, std::size_t pos, const Word& path,
                       const LocAt& at) {
    LineFields f;
    Word obs = parseObservation(line, pos, path, at);
    f.expected = *observationFromString(obs.text);
    Word flagsField = keyedField(line, pos, obs, "observation", "flags", kFlagsForm, at);
    std::vector<Word> flags = parseFlags(flagsField, at);
    Word statesField = keyedField(line, pos, flagsField, "flags", "states", kStatesForm, at);
    f.states = parseStates(statesField, f.expected, at);
    while (pos < line.size() && isBlank(line[pos]))
        ++pos;
    f.reason = trimRight(line.substr(pos));
    if (f.reason.empty())
        throw InputError(at(endOf(statesField)),
                         "missing reason after the state count (a reason is mandatory: say why "
                         "the model must give this answer)");
    for (const Word& flag : flags) {
        if (!mentions(f.reason, flag.text))
            throw InputError(at(flag.begin),
                             "the reason must say why flag '" + flag.text + "' is raised");
        f.flags.push_back(flag.text);
    }
    return f;
}

} // namespace ptxmc::report::detail
