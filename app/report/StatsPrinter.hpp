// `check --stats`: what checking a test cost, as herd-style lines and as JSON.
#pragma once

#include "report/EngineTypes.hpp"

#include <nlohmann/json.hpp>
#include <ostream>

namespace ptxmc::report {

/**
 * `Stats NAME ...` lines: program size, encoding size, the relations with the most solver
 * terms, and (with times) the phases and Z3's counters. Without times the lines are the same
 * on every run.
 */
void printStats(std::ostream& out, const std::string& testName, const Stats& s, bool withTimes);

/** The same as one JSON object; every relation is listed. */
nlohmann::ordered_json statsJson(const Stats& s, bool withTimes);

} // namespace ptxmc::report
