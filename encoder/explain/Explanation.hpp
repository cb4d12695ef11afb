// Why an outcome is allowed (a witness execution) or forbidden (a minimal set of named axioms).
#pragma once

#include "check/Check.hpp"
#include "engine/Unknown.hpp"
#include "explain/WitnessGraph.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxmc::engine::explain {

struct Explanation {
    enum class Kind { Allowed, Forbidden, Deadlock, Unknown, NotRaised };

    /** One event of what breaks an axiom, and the relation that leads on to the next one. */
    struct Step {
        std::string event;    ///< explain::describeEvent: "P1 line 23: ld..., reads a0 = 4"
        std::string relation; ///< the part of the axiom's relation to the next step; empty last
    };

    /** One axiom of the minimal forbidding set, with what breaks it nearest to the outcome. */
    struct Violation {
        std::string axiom;
        std::string doc;               ///< the comment above the axiom: its PTX section
        std::string where;             ///< model file:line:col
        std::string evidence;          ///< the cycle or edge that breaks it, in words
        explain::WitnessGraph closest; ///< an execution reaching the outcome without this axiom
        std::vector<Step> steps;       ///< the cycle (back to the first step) or pair, in words
        bool cycle = false;            ///< the last step's relation leads back to the first
    };

    Kind kind = Kind::Unknown;
    std::string target;                ///< the outcome explained, e.g. "P1:r0 == 0"
    explain::WitnessGraph witness;     ///< Allowed: one execution reaching it
    std::vector<Violation> violations; ///< Forbidden (empty: the program cannot reach it at all)
    std::vector<engine::BlockedWait> blocked; ///< Deadlock: waits that never succeed
    engine::UnknownReason unknownReason;      ///< Unknown: why (its words printed as they are)
    bool noExecution = false; ///< Forbidden because the model allows no execution at all
};

/**
 * Explains `outcome` ("P1:r0=0; x=1", names as ptxmc prints them), or, without one, the
 * program's condition (its proposition for exists/~exists, the negation for forall).
 * `checked`, when the caller has it, is the program's check result (Z3): a deadlock is then
 * reported from it instead of checking the program again.
 * Throws InputError for an outcome naming something the program does not observe.
 */
Explanation explainOutcome(const ir::Program& program, const cat::ResolvedModel& model,
                           const std::optional<std::string>& outcome, const CheckOptions& options,
                           const engine::CheckResult* checked = nullptr);

/**
 * Whether some execution within the unroll bound that completes reaches `outcome` (the
 * condition when none) or, where `flag` names a cat flag of the model, raises it: one query
 * under the check's own encoding (fixed orders, lazy closures), where forbiddingAxioms and a
 * whole check give up those or ask every state. False when none does and when the solver cannot
 * tell; true therefore settles that a change forbids nothing.
 */
bool reachable(const ir::Program& program, const cat::ResolvedModel& model,
               const std::optional<std::string>& outcome, const std::string& flag,
               const CheckOptions& options);

/**
 * The axioms (a minimal set, in model order) that forbid `outcome` (or the condition) in
 * `program`; nullopt when some execution reaches it, when the solver cannot tell, or when the
 * unroll bound hides executions that might.
 */
std::optional<std::vector<std::string>> forbiddingAxioms(const ir::Program& program,
                                                         const cat::ResolvedModel& model,
                                                         const std::optional<std::string>& outcome,
                                                         const CheckOptions& options);

/**
 * An execution raising flag `flag` (a cat flag of the model, or `hang`): Allowed with the
 * execution drawn (one that finishes when there is one, else one that blocks forever), or
 * NotRaised. Throws InputError when the model has no such flag.
 */
Explanation explainFlag(const ir::Program& program, const cat::ResolvedModel& model,
                        const std::string& flag, const CheckOptions& options);

} // namespace ptxmc::engine::explain
