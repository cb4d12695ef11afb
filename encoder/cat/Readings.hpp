// Built-in variant models folded into their default model, so that one encoding holds them all.
#pragma once

#include "cat/Ast.hpp"

#include <string>
#include <vector>

namespace ptxmc::cat {

/** A variant model of the default one: its name under model/ and its statements. */
struct Variant {
    ReadingId reading; ///< model/variants/NAME.cat
    Model model;
};

/**
 * `base` with every variant's own definitions folded in as Reading choices: where a variant
 * redefines `let X = e`, the result has `let X = (e under VARIANT, else X)` at the same place.
 * Evaluated with no reading chosen, the result is `base`; with one chosen, that variant.
 * Throws InputError when a variant is not `base` plus `let`s of its own file that redefine
 * `base`'s (such a model is checked on its own instead).
 */
Model combineReadings(const Model& base, const std::vector<Variant>& variants);

/** The built-in model (tcgen05.cat) with every built-in variant (model/variants) folded in, in
 *  name order. */
Model builtinModelWithReadings();

} // namespace ptxmc::cat
