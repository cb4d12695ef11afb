// Flag witnesses, blocked waits and cuts in words, one way for text and JSON.
#include "report/AnswerText.hpp"

namespace ptxmc::report {

std::string witnessText(const FlagWitness& w) {
    std::string line;
    for (const EventRef& e : w)
        line += (line.empty() ? "" : " / ") + toString(e);
    return line;
}

std::vector<std::string> witnessTexts(const RaisedFlag& f) {
    std::vector<std::string> out;
    for (const FlagWitness& w : f.witnesses)
        out.push_back(witnessText(w));
    return out;
}

std::string blockedText(const BlockedWait& b) {
    return b.wait ? toString(*b.wait) : b.reason;
}

std::vector<std::string> blockedTexts(const std::vector<BlockedWait>& waits) {
    std::vector<std::string> out;
    for (const BlockedWait& b : waits)
        out.push_back(blockedText(b));
    return out;
}

std::vector<std::string> eventTexts(const std::vector<EventRef>& events) {
    std::vector<std::string> out;
    for (const EventRef& e : events)
        out.push_back(toString(e));
    return out;
}

} // namespace ptxmc::report
