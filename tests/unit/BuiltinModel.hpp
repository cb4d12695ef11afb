// Shared test fixture: the built-in model, resolved once.
#pragma once

#include "cat/Loader.hpp"
#include "cat/Resolver.hpp"

namespace ptxmc::testing {

/** The built-in model (model/tcgen05.cat), resolved on first use. */
inline const cat::ResolvedModel& builtinModel() {
    static auto model = cat::resolveModel(cat::loadBuiltinModel());
    return *model;
}

} // namespace ptxmc::testing
