// Converts a CheckResult to one JSON object (keys in a fixed order, for stable diffs).
#pragma once

#include "report/PrintOptions.hpp"
#include "report/Result.hpp"

#include <nlohmann/json.hpp>

namespace ptxmc::report {

class JsonPrinter {
public:
    explicit JsonPrinter(PrintOptions options = {}) : options_(options) {}

    nlohmann::ordered_json toJson(const CheckResult& r) const;

private:
    PrintOptions options_;
};

} // namespace ptxmc::report
