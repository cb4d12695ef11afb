// shfl.sync's source lanes and vote.sync's results, from the lanes that run them together.
#include "kernel/WarpCollectives.hpp"

#include <array>
#include <string_view>
#include <utility>

namespace ptxmc::kernel {

namespace {

constexpr std::array<std::pair<std::string_view, ShflMode>, 4> kShflModes = {{
    {"idx", ShflMode::Idx},
    {"up", ShflMode::Up},
    {"down", ShflMode::Down},
    {"bfly", ShflMode::Bfly},
}};
constexpr std::array<std::pair<std::string_view, VoteMode>, 4> kVoteModes = {{
    {"ballot", VoteMode::Ballot},
    {"any", VoteMode::Any},
    {"all", VoteMode::All},
    {"uni", VoteMode::Uni},
}};

template <class Mode, std::size_t N>
Mode collectiveMode(const std::array<std::pair<std::string_view, Mode>, N>& table,
                    const std::string& part) {
    for (const auto& [name, mode] : table)
        if (part == name) return mode;
    return Mode::Other;
}

} // namespace

ShflMode shflMode(const std::vector<std::string>& parts) {
    return parts.size() > 2 ? collectiveMode(kShflModes, parts[2]) : ShflMode::Idx;
}

VoteMode voteMode(const std::vector<std::string>& parts) {
    return parts.size() > 2 ? collectiveMode(kVoteModes, parts[2]) : VoteMode::Other;
}

int shflSource(ShflMode mode, int lane, std::uint64_t b, std::uint64_t members) {
    long src = lane;
    long bv = static_cast<long>(b & 31);
    switch (mode) {
    case ShflMode::Idx:
        src = bv;
        break;
    case ShflMode::Up:
        src = lane - bv;
        break;
    case ShflMode::Down:
        src = lane + bv;
        break;
    case ShflMode::Bfly:
        src = lane ^ bv;
        break;
    case ShflMode::Other:
        break;
    }
    if (src < 0 || src > 31 || !((members >> src) & 1U)) return lane;
    return static_cast<int>(src);
}

std::optional<std::uint64_t> voteResult(VoteMode mode, std::uint64_t ballot,
                                        std::uint64_t members) {
    switch (mode) {
    case VoteMode::Ballot:
        return ballot;
    case VoteMode::Any:
        return ballot != 0 ? 1 : 0;
    case VoteMode::All:
        return ballot == members ? 1 : 0;
    case VoteMode::Uni:
        return ballot == 0 || ballot == members ? 1 : 0;
    case VoteMode::Other:
        break;
    }
    return std::nullopt;
}

} // namespace ptxmc::kernel
