// The built-in readings of the PTX text, folded into one model, and a test's answer under each.
#include "cli/Readings.hpp"

#include "cat/Readings.hpp"
#include "report/Answer.hpp"

namespace ptxmc::cli {

std::shared_ptr<const cat::ResolvedModel> modelWithReadings() {
    static const std::shared_ptr<const cat::ResolvedModel> model =
        cat::resolveModel(cat::builtinModelWithReadings());
    return model;
}

engine::CheckResult checkWithReadings(const ir::Program& program, const cat::ResolvedModel& model,
                                      const engine::CheckOptions& options) {
    std::vector<engine::CheckResult> all = engine::checkReadings(program, model, options);
    engine::CheckResult base = std::move(all.at(0));
    const std::vector<std::string> baseFlags = report::flagNames(base.flags);
    std::vector<engine::ReadingResult> differing;
    for (std::size_t k = 1; k < all.size(); ++k) {
        const engine::CheckResult& r = all[k];
        base.seconds += r.seconds;
        const cat::ReadingInfo& reading = model.readings[k - 1];
        engine::ReadingResult v{reading.reading, r.observation,          report::flagNames(r.flags),
                                r.states.size(), report::stateValues(r), {}};
        for (const auto& [name, label] : reading.decisions)
            v.decisions.push_back(label);
        // The same number of states is not the same answer: the states themselves count.
        if (v.observation != base.observation || v.flags != baseFlags ||
            v.values != report::stateValues(base))
            differing.push_back(std::move(v));
    }
    // Without the default answer there is nothing to compare the readings with.
    if (base.observation != engine::Observation::Unknown) base.readings = std::move(differing);
    return base;
}

} // namespace ptxmc::cli
