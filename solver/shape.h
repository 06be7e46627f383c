/* The implicit function of one superovoid in its local frame (SPEC
 * "Shape"), and the powers every part of the solver raises to. */
#ifndef SOLVER_SHAPE_H
#define SOLVER_SHAPE_H

#include <math.h>
#include <stddef.h>

#include "solver/types.h"

/* Bases below this are raised to a power directly, not as t^e / t or
 * through 1 / t: once t^e is subnormal the quotient loses digits, and for
 * subnormal t the reciprocal overflows. */
#define SOVC_TINY_BASE 1e-150

/* t^e for t >= 0, with pow()'s values at 0 and 1 and for infinite e (eps
 * near 0 gives e = 2 / eps = inf). As exp(e log t): 7 ns a call here
 * against pow()'s 9 (which carries extra digits through its logarithm), at
 * a relative error of a few ulps of |e log t|, far below the solvers'
 * tolerances. */
static inline double sovc_power(double t, double e) {
  if (t == 1 || e == 0) return 1.0; /* where e log t would be 0 inf */
  /* Exact, as pow() is: e = 1 is the dual exponent of box-like bodies (eps
   * below 2e-16), whose support points exp(log t) put a few ulps of
   * |log t| outside the box (bug 24). */
  if (e == 1) return t;
  if (t > 0) return exp(e * log(t));
  if (t == 0) return e > 0 ? 0.0 : INFINITY;
  return NAN; /* NaN t; no caller has a negative one */
}

/* 1 if S is an ellipsoid (eps1 = eps2 = 1, no taper), whose implicit
 * function is quadratic: its curvatures have closed forms. */
static inline int sovc_is_ellipsoid(const sovc_shape *S) {
  return S->eps1 == 1 && S->eps2 == 1 && S->taper[0] == 0 && S->taper[1] == 0;
}

/* sovc_power where e is 2 or 1/2 for ellipsoidal exponents (eps = 1):
 * then exact (t * t, sqrt) and without logarithms. Only where those
 * exponents occur: the test costs the other bodies' calls. */
static inline double sovc_power_or_square(double t, double e) {
  return e == 2 ? t * t : sovc_power(t, e);
}
static inline double sovc_power_or_root(double t, double e) {
  return e == 0.5 ? sqrt(t) : sovc_power(t, e);
}

/* Signed power sign(x) |x|^g. */
static inline double sovc_spow(double x, double g) {
  return x < 0 ? -sovc_power(-x, g) : (x > 0 ? sovc_power(x, g) : 0.0);
}

/* SPEC implicit F at local x, its gradient and row-major Hessian; g or H may
 * be NULL. Outside |z| <= a3 the taper factors are frozen at their z = +-a3
 * values so F stays finite and positive there. */
void sovc_implicit(double *F, double g[3], double H[9], const sovc_shape *shape,
                   const double x[3]);

/* sovc_implicit where a far point's values overflow the double range:
 * such values are +-inf (F +inf), sums of huge terms are formed before
 * they overflow, and a true 0 stays 0. Returns 0 if some output is NaN
 * anyway (exponents so near 0 that even the scaled terms overflow, or
 * points so far out in units of the semi-axes that the chain rule's own
 * factors do). */
int sovc_implicit_checked(double *F, double g[3], double H[9], const sovc_shape *shape,
                          const double x[3]);

/* Normalised implicit G = (F + 1)^(eps2/2) - 1 (degree-1 homogeneous when
 * untapered), with gradient and Hessian; better scaled for Newton than F.
 * Where F + 1 underflows (deep inside a flat-profiled body) G is clamped
 * near -1 and the derivatives are zero. */
void sovc_implicit_norm(double *G, double g[3], double H[9],
                        const sovc_shape *shape, const double x[3]);

#endif
