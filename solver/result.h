/* Assembling and checking a distance answer from a common-normal pair. */
#ifndef SOLVER_RESULT_H
#define SOLVER_RESULT_H

#include <math.h>

#include "solver/types.h"

/* Size of the world coordinates of a pair of points, at least 1: the scale
 * of their rounding, which every convergence test allows for. */
static inline double sovc_coordinate_size(const double pA[3], const double pB[3]) {
  /* Comparisons, not fmax (a call on this hot path); a NaN coordinate is
   * skipped either way. */
  double L = 1;
  for (int i = 0; i < 3; ++i) {
    const double a = fabs(pA[i]), b = fabs(pB[i]);
    if (a > L) L = a;
    if (b > L) L = b;
  }
  return L;
}

/* Step halvings a chart's backtracking line search tries before the chart
 * gives up. A Newton step that needs more makes almost no progress (on the
 * stress battery the steps accepted after more halvings moved the iterate
 * by about 1e-4 of the body's size), and the default method does better
 * handing over to its next chart than grinding on. The position chart,
 * the first and cheapest, gets a few more: with 5 it failed on 3 % more
 * pairs, and the stress battery's median rose by 5 %. */
enum { SOVC_CHART_HALVINGS = 5, SOVC_POSITION_CHART_HALVINGS = 8 };

/* Fill result from world witness points pA, pB and the outward normal nA of
 * A at pA (need not be unit): n = nA / |nA|, d = n . (pB - pA). iterations,
 * residual and method are left to the caller. */
void sovc_result_set(sovc_result *result, const double pA[3], const double pB[3],
                     const double nA[3]);

#endif
