// Layering fixture: a sibling of left.
#pragma once
#include "base/Base.hpp"
