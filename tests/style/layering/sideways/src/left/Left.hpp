// Layering fixture: a sibling of right.
#pragma once
#include "low/Low.hpp"
