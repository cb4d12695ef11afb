// Layering fixture: includes its sibling: a failure.
#pragma once
#include "left/Left.hpp"

#include "right/Right.hpp"
