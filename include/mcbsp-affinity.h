/* mcbsp-affinity.h - MulticoreBSP for C 2.x's name of its machine and
 * affinity header: the same declarations as mcbsp.h. */
#ifndef SUPERSTEP_MCBSP_AFFINITY_H
#define SUPERSTEP_MCBSP_AFFINITY_H
#include "mcbsp.h"
#endif
