// Evaluates the parsed model on one concrete execution (booleans instead of Z3 terms).
#pragma once

#include "cat/ReadingReach.hpp"
#include "cat/Resolver.hpp"
#include "engine/BoolAlgebra.hpp"
#include "engine/Evaluator.hpp"
#include "engine/Execution.hpp"
#include "ir/Program.hpp"
#include "ir/Rel.hpp"

#include <map>
#include <memory>
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

    /** The same program and model under `reading`, sharing the program-determined relations
     *  (the same under every reading) made so far and later. */
    ConcreteModel underReading(std::optional<cat::ReadingId> reading) const;

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

    /** A program-determined relation before existence, made on first use and shared by the
     *  program's models under other readings: making every one for each reading took two
     *  thirds of `--readings`' first runs (bench/history.md, 2026-12-04 (2)). */
    const BoolRel& staticRelation(ir::Rel rel) const;
    struct Statics {
        std::map<ir::Rel, BoolRel> rels;
        std::map<ir::Tag, BoolSet> sets;
    };
    /** A check's evaluation of one execution: its base relations, made once each, and the
     *  evaluator that reads them. */
    struct Evaluation;
    /** The default reading's first evaluations, kept where the model has readings: a check of
     *  the same execution under a reading takes from them the definitions that reading does
     *  not reach (`Evaluator::reuse`), where every reading's first run evaluated the whole
     *  model again (bench/history.md, 2026-12-06 (2)). Kept in the shared statics, for the
     *  models of the other readings; two, the first runs trying two schedules. */
    struct DefaultRuns {
        std::vector<std::shared_ptr<Evaluation>> kept;
        std::unique_ptr<cat::ReadingReach> reach; ///< made with the first reading's check
    };
    static constexpr std::size_t kDefaultRunsKept = 2;
    /** The kept evaluation of execution (`c`, `o`) under the default reading, if one. */
    const Evaluation* keptDefault(const Choices& c, const Outcome& o) const;
    std::shared_ptr<Statics> statics_ = std::make_shared<Statics>();
    std::shared_ptr<DefaultRuns> defaultRuns_ = std::make_shared<DefaultRuns>();
    BoolSet existsAll_;
};

/** True when the chosen edges of `r` contain no cycle. */
bool isAcyclic(const BoolRel& r);

} // namespace ptxmc::engine
