// Character entities for HTML and XML output: the one table both escapes share.
#pragma once

#include <string>
#include <string_view>

namespace ptxmc::report {

/** The entity that stands for `c` in HTML and XML text and attributes (&, <, >, "), or "". */
std::string_view entityOf(char c);

/** `text` with &, <, > and " replaced by their entities (HTML text and attribute values). */
std::string htmlEscape(std::string_view text);

} // namespace ptxmc::report
