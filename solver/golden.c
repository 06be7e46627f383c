/* Golden-section maximisation (J. Kiefer, "Sequential minimax search for a
 * maximum", Proc. Amer. Math. Soc. 4 (1953) 502-506). */
#include "solver/golden.h"

#include <math.h>

/* Golden-section maximum of f over [lo, hi]: keeps the bracket around the
 * larger interior value, reusing one evaluation per step; returns the larger
 * of the two final interior values. */
double sovc_golden_max(double (*f)(const void *ctx, double x), const void *ctx,
                       double lo, double hi, int steps) {
  const double g = 0.5 * (sqrt(5.0) - 1);
  double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  double f1 = f(ctx, x1), f2 = f(ctx, x2);
  for (int it = 0; it < steps; ++it) {
    if (f1 < f2) {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = f(ctx, x2);
    } else {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = f(ctx, x1);
    }
  }
  return fmax(f1, f2);
}
