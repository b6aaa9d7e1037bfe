/* mcbsp.hpp - MulticoreBSP for C 1.x's name of its C++ header: bsp.hpp. */
#ifndef SUPERSTEP_MCBSP_HPP
#define SUPERSTEP_MCBSP_HPP
#include "bsp.hpp"
#endif
