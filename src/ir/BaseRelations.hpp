// The base sets and the program-determined base relations of Vocabulary.def, for one program.
#pragma once

#include "ir/Program.hpp"

#include <string>
#include <utility>
#include <vector>

namespace ptxmc::ir {

using Pairs = std::vector<std::pair<int, int>>;

/** Members of base set `name` (sorted event ids). Throws std::logic_error for unknown names. */
std::vector<int> baseSet(const Program& p, const std::string& name);

/** Pairs of a non-choice base relation (sorted). Throws std::logic_error for choice/unknown names.
 */
Pairs staticRelation(const Program& p, const std::string& name);

/** Does event `e`'s scope include the thread placement of event `other` (PTX ISA #scope)? */
bool scopeIncludes(const Event& e, const Event& other);

/** Events referenced by a value (ReadOf, WaitResult, PhaseToken), sorted and unique. */
std::vector<int> valueSources(const ValuePtr& v);

/** Candidate writes a read may read from: same location (sorted by id). */
std::vector<int> rfCandidates(const Program& p, const Event& read);

} // namespace ptxmc::ir
