// A witness graph as text and as Graphviz DOT (the graph itself: explain/WitnessGraph.hpp).
#pragma once

#include "explain/WitnessGraph.hpp"

#include <string>

namespace ptxmc::report {

using engine::explain::WitnessEdge;
using engine::explain::WitnessGraph;
using engine::explain::WitnessNode;

/** An event as people read it: "W x=1  st.relaxed.gpu", "R x=0  ld.acquire.gpu". */
std::string nodeText(const WitnessNode& n);
/** Readable text: one line per event ("e2  P0@cta0 (line 4)  W x=1  st.relaxed.gpu"), then
 *  one line per edge. */
std::string toText(const WitnessGraph& g);
/** Graphviz DOT: a cluster per CTA, a cluster per thread, edges coloured by relation. */
std::string toDot(const WitnessGraph& g);

} // namespace ptxmc::report
