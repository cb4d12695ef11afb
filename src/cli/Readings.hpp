// Readings: the built-in variant models (model/variants), and a test's answer under each.
#pragma once

#include "cat/Resolver.hpp"
#include "engine/Check.hpp"
#include "ir/Program.hpp"
#include "report/Result.hpp"

#include <memory>
#include <string>
#include <vector>

namespace ptxmc::cli {

/** A built-in variant model of the default one: another reading of the PTX text. */
struct Reading {
    std::string name; ///< "variants/q5-completion-orders-proxies.cat"
    std::shared_ptr<const cat::ResolvedModel> model;
};

/** Every model under model/variants, built in, in name order. */
std::vector<Reading> builtInReadings();

/** The readings under which `program`'s answer (verdict, flags, states) differs from `base`'s. */
std::vector<report::ReadingResult> readingsOf(const ir::Program& program,
                                              const report::CheckResult& base,
                                              const std::vector<Reading>& readings,
                                              const engine::CheckOptions& options);

} // namespace ptxmc::cli
