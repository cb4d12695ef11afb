// An execution drawn for people: events grouped by CTA and thread, labelled relation edges.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::engine::explain {

struct WitnessNode {
    int id = -1;
    std::string thread; ///< "P0", or "init"
    int cta = -1;
    std::string label;  ///< instruction text (and the role of an async operation's access)
    std::string access; ///< "W x", "R t@0[2]" for a memory access; empty otherwise
    int line = 0;       ///< source line of the instruction (0: an initial write)
    std::optional<std::int64_t> value; ///< value read or written
    bool async = false;                ///< performed by an asynchronous operation after its issue
    std::string description; ///< explain::describeEvent: thread, line, iteration, phase, value
    bool marked = false;     ///< raises the flag explained alone, or blocks forever
    /// where the instruction is in the program's own terms, when a front end knows better than
    /// `line` (a kernel's "gemm.ptx:242:2 (gemm.cu:88)"); empty: `line`
    std::string where;
};

struct WitnessEdge {
    int from = -1, to = -1;
    std::string relation;
    bool highlight = false; ///< part of the cycle or edge that breaks an axiom
};

struct WitnessGraph {
    std::string title;
    std::vector<WitnessNode> nodes;
    std::vector<WitnessEdge> edges;
    std::vector<std::string> notes; ///< lines printed under the graph (final state, axiom, ...)
    /// What the thick (highlighted) edges are: they break an axiom, or make the outcome
    std::string highlightMeaning = "breaks the axiom";
    /// Thread i's own name where the program names its threads (a kernel's "CTA 0 warp 4"),
    /// shown for "Pi"; none: "Pi"
    std::vector<std::string> threadNames;
};

} // namespace ptxmc::engine::explain
