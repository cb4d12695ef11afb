// Character entities for HTML and XML output.
#include "report/Markup.hpp"

namespace ptxmc::report {

std::string_view entityOf(char c) {
    switch (c) {
    case '&':
        return "&amp;";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    case '"':
        return "&quot;";
    default:
        return "";
    }
}

std::string htmlEscape(std::string_view text) {
    std::string out;
    for (char c : text) {
        std::string_view entity = entityOf(c);
        if (entity.empty())
            out += c;
        else
            out += entity;
    }
    return out;
}

} // namespace ptxmc::report
