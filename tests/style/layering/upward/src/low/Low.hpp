// Layering fixture: includes the top layer: a failure.
#pragma once
#include "base/Base.hpp"
#include "top/Top.hpp"
