// The explicit engine: every candidate execution, the same parsed model evaluated on each.
#pragma once

#include "engine/Engine.hpp"

namespace ptxmc::engine::enumerate {

/**
 * The reference engine: evaluates the model on every candidate execution and collects the
 * allowed final states. Exponential, so meant for small tests and cross-checking Z3.
 */
class EnumerateEngine final : public Engine {
public:
    std::shared_ptr<const Engine> clone() const override {
        return std::make_shared<EnumerateEngine>(*this);
    }
    void search(const ir::Program& p, const cat::ResolvedModel& model, const CheckOptions& options,
                Clock::time_point start, engine::CheckResult& r) const override;
};

} // namespace ptxmc::engine::enumerate
