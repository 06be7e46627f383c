/* Assembling and checking a distance answer from a common-normal pair. */
#ifndef SOLVER_RESULT_H
#define SOLVER_RESULT_H

#include "superovoid/superovoid.h"

/* Fill result from world witness points pA, pB and the outward normal nA of
 * A at pA (need not be unit): n = nA / |nA|, d = n . (pB - pA). iterations,
 * residual and method are left to the caller. */
void sovc_result_set(sov_result *result, const double pA[3], const double pB[3],
                     const double nA[3]);

#endif
