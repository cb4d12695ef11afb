// Prints the cost of one check: sizes are deterministic, times and Z3's counters are not.
#include "report/StatsPrinter.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace ptxmc::report {

namespace {

/** How many relations the text form lists (JSON lists all). */
constexpr std::size_t kRelationsShown = 8;

/** The relations with solver terms, most first (ties in definition order). */
std::vector<RelationSize> costliest(const Stats& s) {
    std::vector<RelationSize> out;
    std::copy_if(s.relations.begin(), s.relations.end(), std::back_inserter(out),
                 [](const RelationSize& r) { return r.may > 0; });
    std::stable_sort(out.begin(), out.end(),
                     [](const RelationSize& a, const RelationSize& b) { return a.may > b.may; });
    if (out.size() > kRelationsShown) out.resize(kRelationsShown);
    return out;
}

} // namespace

void printStats(std::ostream& out, const std::string& testName, const Stats& s, bool withTimes) {
    out << fmt::format("Stats {} program: {} threads, {} events; {} solver queries\n", testName,
                       s.threads, s.events, s.queries);
    out << fmt::format(
        "Stats {} encoding: {} assertions ({} of {} closure lemmas, {} of them "
        "propagated lazily ({} propagations), {} mbarrier facts from {} schedule "
        "states ({} misuses searched past, {} left to the solver), {} of {} flag members and "
        "pairs ruled out by them, {} mbarrier facts in the encoding of executions that "
        "hang); variables: {} Boolean, {} integer, {} bit-vector\n",
        testName, s.assertions, s.lemmasKept, s.lemmasMade, s.lemmasLazy, s.propagations,
        s.mbarrierFacts, s.mbarrierFactStates, s.mbarrierMisusesPast, s.mbarrierMisusesLeft,
        s.flagWitnessesPruned, s.flagWitnesses, s.hangMbarrierFacts, s.boolVars, s.intVars,
        s.bitVectorVars);
    out << fmt::format("Stats {} observations: {} of {} mb-obs pairs decided by the mbarrier "
                       "facts before the axioms\n",
                       testName, s.observationsDecided, s.observationPairs);
    std::size_t may = 0, must = 0, unmade = 0;
    for (const RelationSize& r : s.relations) {
        may += r.may;
        must += r.must;
        unmade += r.made ? 0 : 1;
    }
    out << fmt::format("Stats {} relations: {} defined ({} not made: no check reads them "
                       "whole), {} pairs fixed by the program, {} decided by the solver",
                       testName, s.relations.size(), unmade, must, may);
    std::string sep = "; most: ";
    for (const RelationSize& r : costliest(s)) {
        out << sep << r.name << ' ' << r.may;
        sep = ", ";
    }
    out << '\n';
    out << fmt::format("Stats {} acyclicity: {} axioms watched as graphs", testName,
                       s.acyclicGraphs);
    if (withTimes)
        out << fmt::format(" ({} cycles refused, {} edges kept out)", s.cyclesRefused,
                           s.edgesExcluded);
    out << '\n';
    if (!withTimes) return;
    out << fmt::format("Stats {} time: lower {:.3f} s, encode {:.3f} s, solve {:.3f} s\n", testName,
                       s.lowerSeconds, s.encodeSeconds, s.solveSeconds);
    if (!s.encodePhases.empty()) {
        out << "Stats " << testName << " encode:";
        const char* between = " ";
        for (const PhaseTime& t : s.encodePhases) {
            out << fmt::format("{}{} {:.3f} s", between, t.phase, t.seconds);
            between = "; ";
        }
        out << '\n';
    }
    if (!s.queryTimes.empty()) {
        out << "Stats " << testName << " queries:";
        const char* between = " ";
        for (const QueryTime& q : s.queryTimes) {
            out << fmt::format("{}{} {:.3f} s ({} sat, {} unsat{})", between, q.purpose, q.seconds,
                               q.sat, q.unsat,
                               q.unknown > 0 ? fmt::format(", {} unknown", q.unknown) : "");
            between = "; ";
        }
        out << '\n';
    }
    out << "Stats " << testName << " z3:";
    for (const auto& [key, value] : s.solver)
        out << ' ' << key << '=' << value;
    out << '\n';
}

nlohmann::ordered_json statsJson(const Stats& s, bool withTimes) {
    nlohmann::ordered_json j;
    j["threads"] = s.threads;
    j["events"] = s.events;
    j["queries"] = s.queries;
    j["assertions"] = s.assertions;
    j["closure_lemmas"] = {{"kept", s.lemmasKept},
                           {"made", s.lemmasMade},
                           {"lazy", s.lemmasLazy},
                           {"propagations", s.propagations}};
    j["acyclicity_graphs"] = s.acyclicGraphs;
    if (withTimes)
        j["acyclicity_search"] = {{"cycles_refused", s.cyclesRefused},
                                  {"edges_kept_out", s.edgesExcluded}};
    j["mbarrier_facts"] = {{"asserted", s.mbarrierFacts},
                           {"states", s.mbarrierFactStates},
                           {"misuses_searched_past", s.mbarrierMisusesPast},
                           {"misuses_left", s.mbarrierMisusesLeft},
                           {"flag_witnesses", s.flagWitnesses},
                           {"flag_witnesses_ruled_out", s.flagWitnessesPruned},
                           {"in_hang_encoding", s.hangMbarrierFacts},
                           {"observation_pairs", s.observationPairs},
                           {"observations_decided", s.observationsDecided}};
    j["variables"] = {{"bool", s.boolVars}, {"int", s.intVars}, {"bitvector", s.bitVectorVars}};
    nlohmann::ordered_json rels = nlohmann::ordered_json::array();
    for (const RelationSize& r : s.relations)
        rels.push_back({{"name", r.name}, {"must", r.must}, {"may", r.may}, {"made", r.made}});
    j["relations"] = rels;
    if (!withTimes) return j;
    j["seconds"] = {
        {"lower", s.lowerSeconds}, {"encode", s.encodeSeconds}, {"solve", s.solveSeconds}};
    nlohmann::ordered_json queries = nlohmann::ordered_json::array();
    for (const QueryTime& q : s.queryTimes)
        queries.push_back({{"purpose", q.purpose},
                           {"sat", q.sat},
                           {"unsat", q.unsat},
                           {"unknown", q.unknown},
                           {"seconds", q.seconds}});
    j["query_seconds"] = queries;
    nlohmann::ordered_json phases = nlohmann::ordered_json::array();
    for (const PhaseTime& t : s.encodePhases)
        phases.push_back({{"phase", t.phase}, {"seconds", t.seconds}});
    j["encode_seconds"] = phases;
    nlohmann::ordered_json z3 = nlohmann::ordered_json::object();
    for (const auto& [key, value] : s.solver)
        z3[key] = value;
    j["z3"] = z3;
    return j;
}

} // namespace ptxmc::report
