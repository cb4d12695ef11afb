// The Z3 engine: encode program + model, then ask for one execution per distinct final state.
#pragma once

#include "engine/Engine.hpp"

namespace ptxmc::engine::smt {

/** Enumerates every allowed final state with Z3; each search uses its own Z3 context. */
class Z3Engine final : public Engine {
public:
    std::shared_ptr<const Engine> clone() const override {
        return std::make_shared<Z3Engine>(*this);
    }
    void search(const ir::Program& p, const cat::ResolvedModel& model, const CheckOptions& options,
                Clock::time_point start, engine::CheckResult& r) const override;
    /** Every reading from one encoding: readings are assumption literals (Z3Session). */
    void searchReadings(const ir::Program& p, const cat::ResolvedModel& model,
                        const CheckOptions& options,
                        std::vector<engine::CheckResult>& out) const override;
};

/**
 * The program-only hang query (can a gate hold its thread forever, model axioms aside) answered
 * by the solver alone, without the explicit schedules that the engine asks first: for tests
 * that hold the two to the same answer.
 */
bool solverSaysProgramMayHang(const ir::Program& p);

} // namespace ptxmc::engine::smt
