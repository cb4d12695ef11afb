// The lookup of ModuleOps.def: an instruction's opcode parts to its row.
#include "ptx/ModuleOps.hpp"

#include <algorithm>
#include <array>

namespace ptxmc::ptx {

namespace {

constexpr std::array kModuleOpRows = {
#define PTXMC_MODULE_OP(Name, lead, qualifier, Role)                                               \
    ModuleOpRow{ModuleOp::Name, lead, qualifier, ModuleRole::Role},
#include "ptx/ModuleOps.def"
};

/** Whether `row` names `parts`: its leading parts first, its qualifier among the others. */
bool moduleRowMatches(const ModuleOpRow& row, const std::vector<std::string>& parts) {
    std::size_t n = 0;
    for (std::size_t at = 0; at != std::string_view::npos; ++n) {
        std::size_t dot = row.lead.find('.', at);
        std::string_view p = row.lead.substr(at, dot == std::string_view::npos ? dot : dot - at);
        if (n >= parts.size() || parts[n] != p) return false;
        at = dot == std::string_view::npos ? dot : dot + 1;
    }
    return row.qualifier.empty() || std::find(parts.begin() + static_cast<std::ptrdiff_t>(n),
                                              parts.end(), row.qualifier) != parts.end();
}

} // namespace

ModuleOpRow moduleOp(const std::vector<std::string>& parts) {
    if (parts.empty()) return {};
    for (const ModuleOpRow& row : kModuleOpRows)
        if (moduleRowMatches(row, parts)) return row;
    return {};
}

bool hasQualifier(const std::vector<std::string>& parts, std::string_view q) {
    return std::any_of(
        parts.begin() + (parts.empty() ? 0 : 1), parts.end(), [&](const std::string& part) {
            return part == q || (part.size() > q.size() + 1 && part.compare(0, q.size(), q) == 0 &&
                                 part.compare(q.size(), 2, "::") == 0);
        });
}

ModuleOpRow moduleOpRow(ModuleOp op) {
    auto i = static_cast<std::size_t>(op);
    return i < kModuleOpRows.size() ? kModuleOpRows[i] : ModuleOpRow{};
}

} // namespace ptxmc::ptx
