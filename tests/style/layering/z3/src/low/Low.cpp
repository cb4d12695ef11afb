// Layering fixture: sees Z3 below the solver layer: a failure.
#pragma once
#include "low/Low.hpp"

#include <z3++.h>
