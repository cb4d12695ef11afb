// The typed parts of an answer as every report prints them: quantifier, witnesses, waits, cuts.
#pragma once

#include "report/EngineTypes.hpp"

#include <string>
#include <vector>

namespace ptxmc::report {

/** One witness of a flag: its events, "P1: <instruction> (file:line:col)", joined by " / ". */
std::string witnessText(const FlagWitness& w);

/** Each witness of a flag, as witnessText prints it. */
std::vector<std::string> witnessTexts(const RaisedFlag& f);

/** A deadlocked wait as its event, or the reason lowering gave for a static deadlock. */
std::string blockedText(const BlockedWait& b);

/** Each deadlocked wait, as blockedText prints it. */
std::vector<std::string> blockedTexts(const std::vector<BlockedWait>& waits);

/** Each event, as engine::toString prints it (the loops that reached the unroll bound). */
std::vector<std::string> eventTexts(const std::vector<EventRef>& events);

} // namespace ptxmc::report
