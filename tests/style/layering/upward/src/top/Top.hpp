// Layering fixture: the top layer.
#pragma once
#include "left/Left.hpp"
#include "right/Right.hpp"

#include <z3++.h>
