/* Implicit common-normal system (study Eq. 15, Lopes 2010 framework): 6
 * unknowns pA, pB (world), 6 equations F_A = 0, F_B = 0, tA . nB = 0,
 * bA . nB = 0, tA . (pB - pA) = 0, bA . (pB - pA) = 0, with tA, bA from a
 * Householder reflection of nA, and an analytic Jacobian. */
#ifndef SOLVER_IMPLICIT_H
#define SOLVER_IMPLICIT_H

#include "solver/newton.h"
#include "solver/types.h"

/* How the Newton iteration runs. */
typedef struct sovc_newton_config {
  int normalized;     /* 1: G = (F+1)^(eps2/2) - 1; 0: the study's raw F */
  int damped;         /* 1: backtracking line search on |r|; 0: full steps */
  double tolerance;   /* stop when |r| < tolerance */
  int max_iterations;
  int lapack;         /* 1: solve with LAPACKE (the study's scheme); 0: the
                         small fixed-size LU of the default method */
  double max_first_step; /* > 0: a first Newton step longer than this ends
                            the solve with SOVC_FAR_START (its start lies
                            outside the basin); 0: no such test */
  const sovc_verdict *verdict; /* asked at every evaluated iterate (NULL:
                                  none): the solve ends with SOVC_DECIDED
                                  where it decides */
} sovc_newton_config;

/* sovc_solve_implicit_warm's answer where the first step exceeded
 * max_first_step (not a sov_status: no answer, nothing wrong). */
enum { SOVC_FAR_START = 1 };

/* Residual r[6] of Eq. 15 at world points pA, pB and, if J is not NULL, its
 * analytic Jacobian (column-major, columns pA then pB). Returns |r|, or
 * INFINITY where a normal is undefined or a value is not finite. */
double sovc_implicit_system(double r[6], double J[36], const sovc_pair *P, const double pA[3],
                            const double pB[3], int normalized);

/* Newton from world points pA0, pB0. On SOV_OK fills result (n = outward
 * normal of A, d = n . (pB - pA)); SOV_ERR_SPURIOUS when the converged pair
 * has B's normal not opposite A's. result->iterations is always set. */
int sovc_solve_implicit(sovc_result *result, const sovc_pair *P, const double pA0[3],
                        const double pB0[3], const sovc_newton_config *config);

/* sovc_solve_implicit with a cache's evaluations: from start (the raw F of
 * both bodies at points in their frames, as sovc_cache keeps them; NULL:
 * evaluate at pA0, pB0) without evaluating there again; with
 * config->normalized 0 only. On SOV_OK last (if not NULL) gets the
 * evaluations at the last point evaluated, from which the answer came. */
int sovc_solve_implicit_warm(sovc_result *result, const sovc_pair *P, const double pA0[3],
                             const double pB0[3], const sovc_newton_config *config,
                             const sovc_cache_eval start[2], sovc_cache_eval last[2]);

#endif
