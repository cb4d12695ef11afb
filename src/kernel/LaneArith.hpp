// Arithmetic, setp and moves a lane runs on its known values (the semantics of Arith.hpp).
#pragma once

#include "kernel/Lane.hpp"
#include "kernel/LaneValues.hpp"
#include "kernel/Module.hpp"

namespace ptxmc::kernel {

/**
 * An arithmetic statement (add, mul, shf, cvt, mov, cvta, mapa, getctarank, ...): its result,
 * kept to its destination type's width, or unknown (naming the parameter field and the probe
 * an input depends on). A `mov` to a vector unpacks its source, low part first.
 */
void runArith(Lane& L, const Statement& s, const LaneValues& values);

/** setp: the predicate and, with a second destination (`p|q`), its negation. */
void runSetp(Lane& L, const Statement& s, const LaneValues& values);

} // namespace ptxmc::kernel
