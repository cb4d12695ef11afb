// JSON text as every report writes it: indented, newline-terminated, safe for non-UTF-8 bytes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ptxmc {

/**
 * `value` as indented JSON text ending in a newline. Strings that are not UTF-8 (file names are
 * bytes) get U+FFFD for their bad bytes instead of making nlohmann throw.
 */
inline std::string dumpJson(const nlohmann::ordered_json& value) {
    return value.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

} // namespace ptxmc
