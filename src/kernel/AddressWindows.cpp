// Layout's windows: where a shared, generic or parameter address points, and the address
// arithmetic of cvta, mapa and getctarank on them.
#include "kernel/AddressWindows.hpp"

#include <algorithm>

namespace ptxmc::kernel {

namespace {

bool windowHasPart(const std::vector<std::string>& parts, const std::string& q) {
    return std::find(parts.begin() + 1, parts.end(), q) != parts.end();
}
bool windowHasPrefix(const std::vector<std::string>& parts, const std::string& q) {
    for (std::size_t i = 1; i < parts.size(); ++i)
        if (parts[i].rfind(q, 0) == 0) return true;
    return false;
}

} // namespace

std::optional<std::uint64_t> Layout::sharedAddress(std::uint64_t a) {
    if (a >= kGenericShared && a < kGenericParam) a -= kGenericShared;
    if (a >= (128ULL << kRankShift)) return std::nullopt;
    return a;
}

namespace {

/** The symbol of `symbols` whose bytes hold `offset`, and the offset inside it. */
std::optional<std::pair<const Layout::Symbol*, std::uint64_t>>
symbolAt(const std::map<std::string, Layout::Symbol>& symbols, std::uint64_t offset) {
    for (const auto& [name, s] : symbols)
        if (offset >= s.offset && offset < s.offset + std::max<std::uint64_t>(s.bytes, 1))
            return std::make_pair(&s, offset - s.offset);
    return std::nullopt;
}

} // namespace

std::optional<std::pair<const Layout::Symbol*, std::uint64_t>>
Layout::sharedAt(std::uint64_t offset) const {
    return symbolAt(shared, offset);
}

std::optional<std::pair<const Layout::Symbol*, std::uint64_t>>
Layout::paramAt(std::uint64_t offset) const {
    return symbolAt(params, offset);
}

Val cvtaAddress(const std::vector<std::string>& p, const std::vector<Val>& in) {
    if (in.empty() || !in[0].known) return Val{};
    std::uint64_t a = in[0].v;
    bool to = windowHasPart(p, "to");
    if (!windowHasPart(p, "shared") && !windowHasPrefix(p, "shared")) return in[0];
    if (to)
        return a >= Layout::kGenericShared && a < Layout::kGenericParam
                   ? Val::of(a - Layout::kGenericShared)
                   : Val::of(a);
    return a < Layout::kGenericShared ? Val::of(a + Layout::kGenericShared) : Val::of(a);
}

Val mapaAddress(const std::vector<Val>& in) {
    if (in.size() < 2 || !in[0].known || !in[1].known) return Val{};
    std::uint64_t a = in[0].v;
    bool generic = a >= Layout::kGenericShared;
    std::uint64_t s = generic ? a - Layout::kGenericShared : a;
    std::uint64_t r = (in[1].v << Layout::kRankShift) | (s & Layout::kOffsetMask);
    return Val::of(generic ? r + Layout::kGenericShared : r);
}

Val ctarankOf(const std::vector<Val>& in) {
    if (in.empty() || !in[0].known) return Val{};
    std::uint64_t a = in[0].v;
    if (a >= Layout::kGenericShared) a -= Layout::kGenericShared;
    return Val::of((a >> Layout::kRankShift) & 0x7F);
}

} // namespace ptxmc::kernel
