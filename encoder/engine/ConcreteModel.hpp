// Evaluates the parsed model on one concrete execution (booleans instead of Z3 terms).
#pragma once

#include "cat/Resolver.hpp"
#include "engine/BoolAlgebra.hpp"
#include "engine/Evaluator.hpp"
#include "engine/Execution.hpp"
#include "ir/Program.hpp"
#include "ir/Rel.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptxmc::engine {

using BoolRel = BitRel;
using BoolSet = BitSet;

/** The verdict of the model on one execution. */
struct ConcreteVerdict {
    bool consistent = false;
    std::vector<std::string> failedAxioms;               ///< named checks that do not hold
    std::vector<std::string> flags;                      ///< flags raised
    std::map<std::string, std::vector<int>> flagWitness; ///< flag -> a member or pair raising it
};

class ConcreteModel {
public:
    /** `reading`: which of the model's readings (cat::ReadingInfo) its choices take; none:
     *  the default one. */
    ConcreteModel(const ir::Program& p, const cat::ResolvedModel& model,
                  std::optional<cat::ReadingId> reading = std::nullopt);

    /**
     * Evaluates the checks (axioms in `skip` are ignored, for axiom-deletion checks); flags
     * only on consistent executions. With stopAtFirstFailure, failedAxioms holds one name.
     */
    ConcreteVerdict check(const Choices& c, const Outcome& o,
                          const std::set<std::string>& skip = {},
                          bool stopAtFirstFailure = false) const;

    /** An evaluator bound to one execution, to print the model's relations on a witness. */
    Evaluator<BoolAlgebra> evaluator(const Choices& c, const Outcome& o) const;

    BoolRel baseRelation(ir::Rel rel, const Choices& c, const Outcome& o) const;
    BoolSet baseSet(ir::Tag tag, const Outcome& o) const;

private:
    const ir::Program& p_;
    const cat::ResolvedModel& model_;
    mutable BoolAlgebra alg_;
    std::optional<cat::ReadingId> reading_;
    /** Whether a Reading choice of the model (keyed by its variant's file) takes its side. */
    bool readingHolds(const std::string& key) const {
        return reading_ && key == reading_->modelFile();
    }
    BoolSet existing(const Outcome& o) const;

    std::map<ir::Rel, BoolRel> staticRels_; ///< program-determined, before existence
    mutable std::map<ir::Tag, BoolSet> staticSets_;
    BoolSet existsAll_;
};

/** True when the chosen edges of `r` contain no cycle. */
bool isAcyclic(const BoolRel& r);

} // namespace ptxmc::engine
