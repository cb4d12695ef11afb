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
    std::string text;
};

AxiomEvidence axiomEvidence(const ConcreteModel& cm, const Choices& c, const Outcome& o,
                            const cat::Axiom& axiom);

/**
 * Events with their instruction text and values; po and co as immediate edges; rf, fr, ae;
 * the relations the model `show`s; `highlight` edges labelled `highlightName`.
 */
explain::WitnessGraph buildWitness(const ir::Program& p, const cat::ResolvedModel& model,
                                   const ConcreteModel& cm, const Choices& c, const Outcome& o,
                                   const std::vector<std::pair<int, int>>& highlight,
                                   const std::string& highlightName);

} // namespace ptxmc::engine::explain
