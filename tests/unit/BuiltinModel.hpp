// Shared test fixtures: the built-in model, resolved once, and a litmus text lowered.
#pragma once

#include "cat/Loader.hpp"
#include "cat/Resolver.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"

#include <string>

namespace ptxmc::testing {

/** The built-in model (model/tcgen05.cat), resolved on first use. */
inline const cat::ResolvedModel& builtinModel() {
    static auto model = cat::resolveModel(cat::loadBuiltinModel());
    return *model;
}

/** A litmus test given as text, parsed and lowered. */
inline ir::Program lowered(const std::string& text) {
    return lower::lowerTest(litmus::parseLitmus(text, "t.litmus"));
}

} // namespace ptxmc::testing
