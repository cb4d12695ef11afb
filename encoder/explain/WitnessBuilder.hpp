// Draws a concrete execution (and what breaks an axiom on it) as a WitnessGraph.
#pragma once

#include "engine/ConcreteModel.hpp"
#include "explain/WitnessGraph.hpp"

#include <string>
#include <utility>
#include <vector>

namespace ptxmc::engine::explain {

/** What breaks one axiom on an execution: edges to highlight and a sentence. */
struct AxiomEvidence {
    std::vector<std::pair<int, int>> edges;
    std::vector<std::string> relations; ///< per edge: the part of the axiom's relation it is in
    std::vector<int> events;            ///< a non-empty set's members
    bool cycle = false;                 ///< the edges form a cycle (an acyclic axiom)
    std::string text;
};

/** One event as a person reads it: "P1 line 23, iteration 2: ld.shared::cta.b32, reads a0 = 4";
 *  an mbarrier operation with its barrier, parity and the phase it acted on. */
std::string describeEvent(const ir::Program& p, const Outcome& o, int id);

AxiomEvidence axiomEvidence(const ConcreteModel& cm, const Choices& c, const Outcome& o,
                            const cat::Axiom& axiom);

/**
 * Events with their instruction text and values; po, co and mbo as immediate edges; rf, fr, ae;
 * the relations the model `show`s; `highlight` edges labelled `highlightName`.
 */
explain::WitnessGraph buildWitness(const ir::Program& p, const cat::ResolvedModel& model,
                                   const ConcreteModel& cm, const Choices& c, const Outcome& o,
                                   const std::vector<std::pair<int, int>>& highlight,
                                   const std::string& highlightName);

} // namespace ptxmc::engine::explain
