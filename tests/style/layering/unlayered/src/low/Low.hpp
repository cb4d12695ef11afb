// Layering fixture: a layer above base.
#pragma once
#include "base/Base.hpp"
