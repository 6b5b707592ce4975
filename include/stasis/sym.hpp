#pragma once
#include "stasis/sym/derivatives.hpp"
#include "stasis/sym/expr.hpp"
#include "stasis/sym/function.hpp"
#include "stasis/sym/matrix.hpp"
