/* Distance answers: assembled from a common-normal pair, compared, kept,
 * and their witnesses balanced onto the surfaces. */
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

/* Where the global searches' bound closes: within this of the bodies' size
 * (the sum of their radii) above the best answer. */
#define SOVC_SEARCH_BOUND 1e-11

/* Fill result from world witness points pA, pB and the outward normal nA of
 * A at pA (need not be unit): n = nA / |nA|, d = n . (pB - pA). iterations,
 * residual and method are left to the caller. */
void sovc_result_set(sovc_result *result, const double pA[3], const double pB[3],
                     const double nA[3]);

/* Tolerance for comparing values of the objective at r's coordinates
 * (1e-10 of their size). */
static inline double sovc_value_tolerance(const sovc_result *r) {
  return 1e-10 * sovc_coordinate_size(r->pA, r->pB);
}

/* How far r's witnesses fall short of being support points along its
 * normal: h_A(n) - n . pA + h_B(-n) + n . pB, by which the objective
 * -(h_A(n) + h_B(-n)) lies below d. Only bodies with a dent that can matter
 * (above SOVC_DENT_NEGLECT) are searched: a converged witness on a convex
 * body supports it (SPEC), so its share is 0; on a dented one it can lie in
 * the dent, inside the hull the SPEC answers for. */
double sovc_hull_gap(const sovc_result *r, const sovc_pair *P);

/* Swap the roles of A and B in an answer: same d, opposite normal. */
void sovc_result_swap(sovc_result *r);

/* Keep r in best if best is empty or r has a larger d (a larger lower
 * bound); r's iterations are added to best's either way. */
static inline void sovc_keep_best(sovc_result *best, int *have, const sovc_result *r) {
  best->iterations += r->iterations;
  if (!*have || r->d > best->d) {
    const int its = best->iterations;
    *best = *r;
    best->iterations = its;
    *have = 1;
  }
}

/* Make pB - pA = d n exact by sliding one witness by the tangential offset
 * (the one that stays closer to its surface). Offsets within tol are left
 * alone; returns 1 if a witness moved. */
int sovc_balance_witnesses(sovc_result *r, const sovc_pair *P, double tol);

/* Balance r's witnesses (offsets of any size) and return 1 if both then lie
 * on their surfaces within tol, or within the body's dent allowance: the
 * global searches' test of witnesses they build themselves. */
int sovc_balanced_on_surfaces(sovc_result *r, const sovc_pair *P, double tol);

#endif
