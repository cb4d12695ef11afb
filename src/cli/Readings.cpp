// The built-in readings of the PTX text and a test's answer under each of them.
#include "cli/Readings.hpp"

#include "cat/EmbeddedModel.hpp"
#include "cli/ModelArg.hpp"
#include "report/Answer.hpp"

#include <algorithm>

namespace ptxmc::cli {

std::vector<Reading> builtInReadings() {
    std::vector<Reading> out;
    for (const auto& f : cat::embeddedModelFiles())
        if (f.path.rfind("variants/", 0) == 0) out.push_back({f.path, loadModelArg(f.path)});
    std::sort(out.begin(), out.end(),
              [](const Reading& a, const Reading& b) { return a.name < b.name; });
    return out;
}

std::vector<report::ReadingResult> readingsOf(const ir::Program& program,
                                              const report::CheckResult& base,
                                              const std::vector<Reading>& readings,
                                              const engine::CheckOptions& options) {
    std::vector<report::ReadingResult> out;
    const std::vector<std::string> baseFlags = report::flagNames(base.flags);
    for (const Reading& reading : readings) {
        report::CheckResult r = engine::check(program, *reading.model, options);
        report::ReadingResult v{reading.name, r.observation, report::flagNames(r.flags),
                                r.states.size()};
        if (v.observation != base.observation || v.flags != baseFlags ||
            v.states != base.states.size())
            out.push_back(std::move(v));
    }
    return out;
}

} // namespace ptxmc::cli
