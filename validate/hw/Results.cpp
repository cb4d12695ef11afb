// results.json -> HwRun, checking the fields `ptxmc compare` relies on.
#include "hw/Results.hpp"

#include "support/SourceLoc.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ptxmc::validate {

namespace {

template <class T> T field(const nlohmann::json& j, const char* key, T dflt) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return dflt;
    return it->get<T>();
}

} // namespace

HwRun parseResults(const std::string& text, const std::string& path) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(SourceLoc{path}, std::string("not JSON: ") + e.what());
    }
    if (!j.is_object() || !j.contains("tests") || !j["tests"].is_array())
        throw InputError(SourceLoc{path}, "not a litmus runner results file (no \"tests\" array)");
    HwRun run;
    run.path = path;
    try {
        run.device = field<std::string>(j, "device", "");
        run.computeCapability = field<std::string>(j, "compute_capability", "");
        run.driver = field<std::string>(j, "driver", "");
        run.runtime = field<std::string>(j, "runtime", "");
        run.started = field<std::string>(j, "started", "");
        run.seed = field<std::uint64_t>(j, "seed", 0);
        for (const auto& t : j["tests"]) {
            HwTest h;
            h.name = field<std::string>(t, "name", "");
            h.file = field<std::string>(t, "file", "");
            h.mutantOf = field<std::string>(t, "mutant_of", "");
            h.mutation = field<std::string>(t, "mutation", "");
            h.arch = field<std::string>(t, "arch", "");
            h.status = field<std::string>(t, "status", "ok");
            h.message = field<std::string>(t, "message", "");
            h.quantifier = field<std::string>(t, "quantifier", "");
            h.condition = field<std::string>(t, "condition", "");
            h.launches = field<std::uint64_t>(t, "launches", 0);
            h.instances = field<std::uint64_t>(t, "instances", 0);
            h.stuck = field<std::uint64_t>(t, "stuck", 0);
            h.overflow = field<std::uint64_t>(t, "overflow", 0);
            h.seconds = field<double>(t, "seconds", 0);
            if (h.name.empty() || h.file.empty())
                throw InputError(SourceLoc{path}, "a test without \"name\" or \"file\"");
            if (t.contains("observed")) h.observed = t["observed"].get<std::vector<std::string>>();
            if (t.contains("histogram"))
                for (const auto& o : t["histogram"]) {
                    HwOutcome out;
                    out.values = o.at("values").get<std::vector<std::int64_t>>();
                    out.count = o.at("count").get<std::uint64_t>();
                    out.satisfies = field<bool>(o, "satisfies", false);
                    if (out.values.size() != h.observed.size())
                        throw InputError(SourceLoc{path}, h.name + ": a histogram entry has " +
                                                              std::to_string(out.values.size()) +
                                                              " values for " +
                                                              std::to_string(h.observed.size()) +
                                                              " observed references");
                    h.outcomes.push_back(out);
                }
            run.tests.push_back(h);
        }
    } catch (const nlohmann::json::exception& e) {
        throw InputError(SourceLoc{path}, std::string("malformed results: ") + e.what());
    }
    return run;
}

HwRun readResults(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(SourceLoc{path}, "cannot read results file");
    std::ostringstream os;
    os << in.rdbuf();
    return parseResults(os.str(), path);
}

} // namespace ptxmc::validate
