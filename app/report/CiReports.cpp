// SARIF and JUnit XML: what `check` found, in the two formats CI dashboards read.
#include "report/CiReports.hpp"

#include "engine/Flags.hpp"
#include "report/Answer.hpp"
#include "report/AnswerText.hpp"
#include "report/Expectations.hpp"
#include "report/HerdPrinter.hpp"
#include "report/Markup.hpp"
#include "support/Json.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fmt/format.h>
#include <optional>
#include <regex>

namespace ptxmc::report {

using nlohmann::ordered_json;

namespace {

constexpr const char* kSarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr const char* kPtxDocs = "https://docs.nvidia.com/cuda/parallel-thread-execution/#";

// The rules every log has besides the model's flags: id, description, level.
struct FixedRule {
    const char* id;
    const char* text;
};
constexpr FixedRule kFixedRules[] = {
    {"expectation-mismatch", "The test's answer (verdict, flags, number of final states) differs "
                             "from the line its expected.txt records, or no line records it."},
    {"unknown", "The check stopped before a verdict: a limit (--timeout, --memory-limit, "
                "--rlimit) or the unroll bound; the message names it."},
    {"input-error", "An input ptxmc cannot read: a bad path, a test or expected.txt that does not "
                    "parse, a bad model or option."},
    {"internal-error", "ptxmc failed on this input: a bug to report."},
};

// A URI for a path: relative as given (code scanning resolves it from the checkout's root), an
// absolute path as a file:// URI; bytes outside RFC 3986's unreserved and path characters (and
// ':', which would read as a scheme) percent-encoded.
std::string uriOf(const std::string& path) {
    std::string out = !path.empty() && path[0] == '/' ? "file://" : "";
    for (unsigned char c : path) {
        if (std::isalnum(c) ||
            std::string_view("-._~/!$&'()*+,;=@").find(char(c)) != std::string_view::npos)
            out += char(c);
        else
            out += fmt::format("%{:02X}", c);
    }
    return out;
}

ordered_json physicalLocation(const std::string& file, int line, int col) {
    ordered_json p{{"artifactLocation", {{"uri", uriOf(file)}}}};
    if (line > 0) {
        ordered_json region{{"startLine", line}};
        if (col > 0) region["startColumn"] = col;
        p["region"] = std::move(region);
    }
    return p;
}

ordered_json locationOf(const std::string& file, int line = 0, int col = 0) {
    return ordered_json{{"physicalLocation", physicalLocation(file, line, col)}};
}

// "file:line:col: error: message" split up; file empty when the text has no such prefix.
struct ErrorText {
    std::string file;
    int line = 0, col = 0;
    bool internal = false;
};

ErrorText parseError(const std::string& message) {
    ErrorText e;
    std::size_t at = message.find(": error: ");
    if (at == std::string::npos) {
        at = message.find(": internal error: ");
        e.internal = at != std::string::npos;
    }
    if (at == std::string::npos) return e;
    std::string where = message.substr(0, at);
    static const std::regex position(R"((.*):([0-9]+):([0-9]+))");
    std::smatch m;
    if (std::regex_match(where, m, position)) {
        // m refers into `where`: read everything before assigning to it
        e.line = std::stoi(m[2]);
        e.col = std::stoi(m[3]);
        std::string file = m[1];
        where = std::move(file);
    }
    // An option ("--shard") or an unnamed input is no file.
    if (!where.empty() && where[0] != '-' && where != "<input>") e.file = where;
    return e;
}

std::string testNameOf(const TestOutcome& o) {
    if (o.result != nullptr) return o.result->testName;
    return std::filesystem::path(o.path).stem().string();
}

std::string witnessesMessage(const RaisedFlag& f) {
    if (f.witnesses.empty()) return "";
    std::string text = ": " + witnessText(f.witnesses.front());
    if (f.witnesses.size() > 1)
        text += fmt::format(" (and {} more {})", f.witnesses.size() - 1,
                            f.witnesses.size() == 2 ? "witness" : "witnesses");
    return text;
}

} // namespace

DocSection sectionOfDoc(const std::string& doc) {
    // A section number has three parts or more (8.7.1); "9.4" is the ISA version.
    static const std::regex cited(
        R"(([0-9]+\.[0-9]+\.[0-9]+(?:\.[0-9]+)*)(?:\s+#([A-Za-z0-9_-]+))?)");
    DocSection s;
    for (auto it = std::sregex_iterator(doc.begin(), doc.end(), cited);
         it != std::sregex_iterator(); ++it) {
        if (s.number.empty()) s.number = (*it)[1];
        if ((*it)[1] == s.number && (*it)[2].matched) {
            s.anchor = (*it)[2];
            break;
        }
    }
    return s;
}

ordered_json eventJson(const EventRef& e) {
    ordered_json j;
    j["file"] = e.loc.file;
    j["line"] = e.loc.line;
    j["column"] = e.loc.col;
    j["thread"] = e.thread;
    j["instruction"] = e.text;
    if (!e.barrier.empty()) j["barrier"] = e.barrier;
    if (e.parity) j["parity"] = *e.parity;
    if (e.iteration >= 0) j["iteration"] = e.iteration;
    if (!e.note.empty()) j["note"] = e.note;
    return j;
}

// ---- SARIF ------------------------------------------------------------------------------------

SarifReport::SarifReport(std::string version, std::vector<FlagRule> flags)
    : version_(std::move(version)), rules_(std::move(flags)) {}

void SarifReport::addRule(const std::string& name, const std::string& doc) {
    for (const FlagRule& r : rules_)
        if (r.name == name) return;
    rules_.push_back({name, doc});
}

ordered_json SarifReport::errorResult(const std::string& message) const {
    ErrorText e = parseError(message);
    ordered_json r{{"ruleId", e.internal ? "internal-error" : "input-error"},
                   {"level", "error"},
                   {"message", {{"text", message}}}};
    if (!e.file.empty()) r["locations"] = ordered_json::array({locationOf(e.file, e.line, e.col)});
    return r;
}

void SarifReport::addError(const std::string& message) {
    results_.push_back(errorResult(message));
}

void SarifReport::add(const TestOutcome& o) {
    if (o.result == nullptr) {
        ordered_json r = errorResult(o.error);
        if (!r.contains("locations")) r["locations"] = ordered_json::array({locationOf(o.path)});
        results_.push_back(std::move(r));
        return;
    }
    const CheckResult& c = *o.result;
    const std::string test = "test " + c.testName;
    for (const RaisedFlag& f : c.flags) {
        addRule(f.name, f.doc);
        const bool named = std::find(o.failing.begin(), o.failing.end(), f.name) != o.failing.end();
        const bool failing = named || o.everyFlagFails;
        ordered_json r{{"ruleId", f.name},
                       {"level", failing ? "error" : "warning"},
                       {"message",
                        {{"text", test + " raises " + f.name + witnessesMessage(f) +
                                      (named ? " (--fail-on-flag)" : "")}}}};
        // The first event of the first witness is where; every other event is related.
        std::vector<const EventRef*> events;
        for (const FlagWitness& w : f.witnesses)
            for (const EventRef& e : w)
                if (!e.loc.file.empty() && e.loc.line > 0) events.push_back(&e);
        if (events.empty()) {
            r["locations"] = ordered_json::array({locationOf(c.file)});
        } else {
            const EventRef& first = *events.front();
            r["locations"] =
                ordered_json::array({locationOf(first.loc.file, first.loc.line, first.loc.col)});
            ordered_json related = ordered_json::array();
            const std::vector<SourceFrame> sources =
                o.sourceOf ? o.sourceOf(first.loc.line) : std::vector<SourceFrame>{};
            if (!sources.empty()) {
                r["locations"] =
                    ordered_json::array({locationOf(sources.front().file, sources.front().line)});
                related.push_back(
                    ordered_json{{"id", 0},
                                 {"physicalLocation",
                                  physicalLocation(first.loc.file, first.loc.line, first.loc.col)},
                                 {"message", {{"text", engine::toString(first)}}}});
            }
            for (std::size_t k = 1; k < events.size(); ++k) {
                const EventRef& e = *events[k];
                related.push_back(ordered_json{
                    {"id", k},
                    {"physicalLocation", physicalLocation(e.loc.file, e.loc.line, e.loc.col)},
                    {"message", {{"text", engine::toString(e)}}}});
            }
            // the other lines of the first event's inlining chain, after the events' ids
            for (std::size_t k = 1; k < sources.size(); ++k)
                related.push_back(ordered_json{
                    {"id", events.size() + k - 1},
                    {"physicalLocation", physicalLocation(sources[k].file, sources[k].line, 0)},
                    {"message", {{"text", sources[k].role}}}});
            if (!related.empty()) r["relatedLocations"] = std::move(related);
        }
        results_.push_back(std::move(r));
    }
    if (c.observation == Observation::Deadlock && o.everyFlagFails) {
        addRule(engine::kHangFlag,
                std::string(engine::kHangFlag) +
                    ": no execution completes; every one blocks in a wait that never "
                    "returns (9.7.15.16.19 #parallel-synchronization-and-communication-"
                    "instructions-mbarrier-test-wait-try-wait)");
        results_.push_back(
            ordered_json{{"ruleId", engine::kHangFlag},
                         {"level", "error"},
                         {"message", {{"text", test + ": Deadlock: no execution completes"}}},
                         {"locations", ordered_json::array({locationOf(c.file)})}});
    }
    if (c.observation == Observation::Unknown) {
        results_.push_back(
            ordered_json{{"ruleId", "unknown"},
                         {"level", "error"},
                         {"message", {{"text", test + ": Unknown: " + c.unknownReason.text}}},
                         {"locations", ordered_json::array({locationOf(c.file)})}});
        return; // Unknown is counted as such, not as a mismatch
    }
    for (const std::string& m : o.readingMismatches)
        results_.push_back(ordered_json{{"ruleId", "expectation-mismatch"},
                                        {"level", o.strict ? "error" : "warning"},
                                        {"message", {{"text", m}}},
                                        {"locations", ordered_json::array({locationOf(c.file)})}});
    const ExpectationCheck& e = c.expectation;
    if (e.governed && !(e.present && e.matches)) {
        ordered_json r{{"ruleId", "expectation-mismatch"},
                       {"level", "error"},
                       {"message", {{"text", test + ": " + expectationLine(c)}}},
                       {"locations", ordered_json::array({locationOf(c.file)})}};
        r["relatedLocations"] = ordered_json::array(
            {ordered_json{{"id", 1},
                          {"physicalLocation", physicalLocation(displayPath(e.file), 0, 0)},
                          {"message", {{"text", "the expectations file"}}}}});
        results_.push_back(std::move(r));
    }
}

std::string SarifReport::text() const {
    ordered_json rules = ordered_json::array();
    for (const FlagRule& f : rules_) {
        DocSection s = sectionOfDoc(f.doc);
        std::string cited = s.number.empty() ? "" : "PTX ISA " + s.number;
        if (!s.anchor.empty()) cited += " #" + s.anchor;
        ordered_json rule{
            {"id", f.name},
            {"shortDescription",
             {{"text", "Flag " + f.name + ": raised by some execution the model allows" +
                           (cited.empty() ? "" : " (" + cited + ")")}}},
            {"fullDescription", {{"text", f.doc.empty() ? f.name : f.doc}}}};
        if (!s.anchor.empty()) rule["helpUri"] = kPtxDocs + s.anchor;
        rule["defaultConfiguration"] = {{"level", "warning"}};
        ordered_json properties{{"kind", "flag"}};
        if (!s.number.empty()) properties["ptxSection"] = s.number;
        if (!s.anchor.empty()) properties["ptxAnchor"] = s.anchor;
        rule["properties"] = std::move(properties);
        rules.push_back(std::move(rule));
    }
    for (const FixedRule& f : kFixedRules)
        rules.push_back(ordered_json{{"id", f.id},
                                     {"shortDescription", {{"text", f.text}}},
                                     {"defaultConfiguration", {{"level", "error"}}}});
    // ruleIndex: where each result's rule is in the list.
    ordered_json results = results_;
    for (ordered_json& r : results) {
        const std::string id = r["ruleId"];
        for (std::size_t k = 0; k < rules.size(); ++k)
            if (rules[k]["id"] == id) {
                ordered_json with;
                for (auto it = r.begin(); it != r.end(); ++it) {
                    with[it.key()] = it.value();
                    if (it.key() == "ruleId") with["ruleIndex"] = k;
                }
                r = std::move(with);
                break;
            }
    }
    ordered_json driver{{"name", "ptxmc"}, {"version", version_}, {"rules", std::move(rules)}};
    ordered_json run{{"tool", {{"driver", std::move(driver)}}}, {"results", std::move(results)}};
    ordered_json log{{"$schema", kSarifSchema},
                     {"version", "2.1.0"},
                     {"runs", ordered_json::array({std::move(run)})}};
    return dumpJson(log);
}

// ---- JUnit XML --------------------------------------------------------------------------------

std::string xmlEscape(const std::string& text) {
    std::string out;
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        unsigned char c = s[i];
        if (c < 0x80) {
            std::string_view entity = entityOf(char(c));
            if (c == '\'')
                out += "&apos;";
            else if (!entity.empty())
                out += entity;
            // XML 1.0 allows no control character but tab, newline and carriage return.
            else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
                out += "\xEF\xBF\xBD";
            else
                out += char(c);
            ++i;
            continue;
        }
        // A well-formed UTF-8 sequence is copied; anything else becomes U+FFFD.
        std::size_t len = c >= 0xF0 && c <= 0xF4  ? 4
                          : c >= 0xE0             ? 3
                          : c >= 0xC2 && c < 0xE0 ? 2
                                                  : 0;
        bool ok = len > 0 && i + len <= n;
        for (std::size_t k = 1; ok && k < len; ++k)
            ok = (s[i + k] & 0xC0) == 0x80;
        if (ok && len == 3) {
            unsigned cp = ((c & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F);
            ok = cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF) && cp != 0xFFFE && cp != 0xFFFF;
        }
        if (ok && len == 4) {
            unsigned cp = ((c & 0x07) << 18) | ((s[i + 1] & 0x3F) << 12);
            ok = cp >= 0x10000 && cp <= 0x10FFFF;
        }
        if (ok) {
            out.append(text, i, len);
            i += len;
        } else {
            out += "\xEF\xBF\xBD";
            ++i;
        }
    }
    return out;
}

namespace {

std::string folderOf(const std::string& path) {
    std::string folder = std::filesystem::path(path).parent_path().generic_string();
    return folder.empty() ? "." : folder;
}

std::string element(const char* tag, const std::string& type, const std::string& message,
                    const std::string& body) {
    return fmt::format("      <{} type=\"{}\" message=\"{}\">{}</{}>\n", tag, xmlEscape(type),
                       xmlEscape(message), xmlEscape(body), tag);
}

} // namespace

void JunitReport::add(const TestOutcome& o) {
    ++tests_;
    std::string attributes = fmt::format("classname=\"{}\" name=\"{}\"",
                                         xmlEscape(folderOf(o.path)), xmlEscape(testNameOf(o)));
    if (o.result != nullptr && options_.showTime) {
        attributes += fmt::format(" time=\"{:.3f}\"", o.result->seconds);
        seconds_ += o.result->seconds;
    }
    std::string body;
    if (o.result == nullptr) {
        ++errors_;
        body = element("error", parseError(o.error).internal ? "internal-error" : "input-error",
                       o.error, o.error);
    } else {
        const CheckResult& c = *o.result;
        const ExpectationCheck& e = c.expectation;
        std::vector<std::string> lines;
        std::string type;
        if (c.observation == Observation::Unknown) {
            ++errors_;
            std::string message = "Unknown: " + c.unknownReason.text;
            body = element("error", "unknown", message, message);
        } else {
            if (e.governed && !(e.present && e.matches)) {
                lines.push_back(e.present ? mismatchText(c) + " (reason: " + e.reason + ")"
                                          : expectationLine(c));
                type = "expectation-mismatch";
            }
            if (o.strict)
                for (const std::string& m : o.readingMismatches) {
                    lines.push_back(m);
                    if (type.empty()) type = "expectation-mismatch";
                }
            for (const std::string& f : o.failing) {
                lines.push_back("test " + c.testName + " raises flag " + f + " (--fail-on-flag)");
                if (type.empty()) type = "fail-on-flag";
            }
            if (!lines.empty()) {
                ++failures_;
                std::string all;
                for (const std::string& l : lines)
                    all += l + "\n";
                body = element("failure", type, lines.front(), all);
            }
        }
        body +=
            "      <system-out>" + xmlEscape(HerdPrinter(options_).format(c)) + "</system-out>\n";
    }
    cases_ += "    <testcase " + attributes + ">\n" + body + "    </testcase>\n";
}

void JunitReport::addError(const std::string& message) {
    ++tests_;
    ++errors_;
    ErrorText e = parseError(message);
    const std::string name = e.file.empty() ? message.substr(0, message.find(": ")) : e.file;
    cases_ += fmt::format("    <testcase classname=\"ptxmc\" name=\"{}\">\n", xmlEscape(name)) +
              element("error", e.internal ? "internal-error" : "input-error", message, message) +
              "    </testcase>\n";
}

std::string JunitReport::text() const {
    std::string counts =
        fmt::format("tests=\"{}\" failures=\"{}\" errors=\"{}\"", tests_, failures_, errors_);
    std::string time = options_.showTime ? fmt::format(" time=\"{:.3f}\"", seconds_) : "";
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" +
           fmt::format("<testsuites name=\"ptxmc\" {}{}>\n", counts, time) +
           fmt::format("  <testsuite name=\"ptxmc\" {} skipped=\"0\"{}>\n", counts, time) + cases_ +
           "  </testsuite>\n</testsuites>\n";
}

} // namespace ptxmc::report
