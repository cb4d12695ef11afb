// Converts a CheckResult to one JSON object (keys in a fixed order, for stable diffs).
#pragma once

#include "report/EngineTypes.hpp"
#include "report/PrintOptions.hpp"
#include "support/Json.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace ptxmc::report {

class JsonPrinter {
public:
    explicit JsonPrinter(PrintOptions options = {}) : options_(options) {}

    nlohmann::ordered_json toJson(const CheckResult& r) const;

private:
    PrintOptions options_;
};

} // namespace ptxmc::report
