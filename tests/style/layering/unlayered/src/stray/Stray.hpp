// Layering fixture: a folder in no layer: a failure.
#pragma once
#include "base/Base.hpp"
