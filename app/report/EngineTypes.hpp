// The engine's typed answer (engine/Result.hpp) under the names the reports use.
#pragma once

#include "engine/Result.hpp"

namespace ptxmc::report {

using engine::BlockedWait;
using engine::CheckResult;
using engine::EventRef;
using engine::ExpectationCheck;
using engine::FinalState;
using engine::FlagWitness;
using engine::Observation;
using engine::observationFromString;
using engine::PhaseTime;
using engine::QueryTime;
using engine::RaisedFlag;
using engine::ReadingResult;
using engine::RelationSize;
using engine::Stats;
using engine::toString;

} // namespace ptxmc::report
