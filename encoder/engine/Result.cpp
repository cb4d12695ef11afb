// Observation names as herd prints them, plus ptxmc's Deadlock and Unknown.
#include "engine/Result.hpp"

#include <array>

namespace ptxmc::engine {

const char* toString(Observation o) {
    switch (o) {
    case Observation::Never:
        return "Never";
    case Observation::Sometimes:
        return "Sometimes";
    case Observation::Always:
        return "Always";
    case Observation::Deadlock:
        return "Deadlock";
    case Observation::Unknown:
        return "Unknown";
    }
    return "Unknown";
}

std::optional<Observation> observationFromString(const std::string& s) {
    static constexpr std::array all = {Observation::Never, Observation::Sometimes,
                                       Observation::Always, Observation::Deadlock,
                                       Observation::Unknown};
    for (Observation o : all)
        if (s == toString(o)) return o;
    return std::nullopt;
}

} // namespace ptxmc::engine
