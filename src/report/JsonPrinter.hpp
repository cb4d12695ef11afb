// Converts a CheckResult to one JSON object (keys in a fixed order, for stable diffs).
#pragma once

#include "report/PrintOptions.hpp"
#include "report/Result.hpp"

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

/**
 * `value` as indented JSON text ending in a newline. Strings that are not UTF-8 (file names are
 * bytes) get U+FFFD for their bad bytes instead of making nlohmann throw.
 */
std::string dumpJson(const nlohmann::ordered_json& value);

} // namespace ptxmc::report
