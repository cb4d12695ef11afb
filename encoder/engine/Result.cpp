// Observation names as herd prints them (plus ptxmc's Deadlock and Unknown), event names.
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

bool operator==(const EventRef& a, const EventRef& b) {
    return a.event == b.event && a.thread == b.thread && a.text == b.text && a.note == b.note &&
           a.loc.file == b.loc.file && a.loc.line == b.loc.line && a.loc.col == b.loc.col &&
           a.barrier == b.barrier && a.parity == b.parity && a.iteration == b.iteration;
}

std::string mbarrierText(const EventRef& e) {
    std::string out;
    // an exec event's text may name its barrier already: "(arrive empty0)"
    if (!e.barrier.empty() && e.text.find(" " + e.barrier + ")") == std::string::npos)
        out += " on " + e.barrier;
    if (e.parity) out += ", parity " + std::to_string(*e.parity);
    return out;
}

std::string toString(const EventRef& e) {
    std::string who = e.thread >= 0 ? "P" + std::to_string(e.thread) : std::string("init");
    const std::string what = e.text + mbarrierText(e);
    std::string where = e.loc.str();
    if (e.iteration >= 0) where += ", iteration " + std::to_string(e.iteration);
    if (!e.note.empty()) where += ", " + e.note;
    return who + ": " + what + " (" + where + ")";
}

} // namespace ptxmc::engine
