// The base sets and the program-determined base relations of Vocabulary.def, for one program.
#pragma once

#include "ir/Program.hpp"
#include "ir/Rel.hpp"
#include "ir/Tag.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ptxmc::ir {

using Pairs = std::vector<std::pair<int, int>>;

/** Members of base set `tag` (sorted event ids). */
std::vector<int> baseSet(const Program& p, Tag tag);

/** A test of one pair of events of one program (checkers keep it while they hold the program). */
using PairTest = std::function<bool(const Event&, const Event&)>;

/**
 * The test of a program-fixed relation that holds for most pairs of events (ext, sr, sproxy,
 * scluster, ...): n^2 pairs on a kernel of thousands of events, which a checker reads per pair
 * where another operand is sparse (`rf & ext`). Null for every other relation.
 */
PairTest densePairTest(const Program& p, Rel rel);

/** Pairs of a non-choice base relation (sorted). Throws std::logic_error for a choice relation. */
Pairs staticRelation(const Program& p, Rel rel);

/** Does event `e`'s scope include the thread placement of event `other` (PTX ISA #scope)? */
bool scopeIncludes(const Event& e, const Event& other);

/** Events referenced by a value (ReadOf, WaitResult, PhaseToken), sorted and unique. */
std::vector<int> valueSources(const ValuePtr& v);

/** Candidate writes a read may read from: same location (sorted by id). */
std::vector<int> rfCandidates(const Program& p, const Event& read);

} // namespace ptxmc::ir
