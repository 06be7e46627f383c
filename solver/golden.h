/* Golden-section search for the maximum of a unimodal function of one
 * variable. Pure C, no heap, no state between calls. */
#ifndef SOLVER_GOLDEN_H
#define SOLVER_GOLDEN_H

/* Maximum of f(ctx, x) over [lo, hi] by `steps` golden-section steps after
 * the two first interior evaluations (steps + 2 calls of f; the bracket
 * shrinks by 0.618^steps): returns the larger of the last two interior
 * values (fmax: a NaN in one of them is ignored). */
double sovc_golden_max(double (*f)(const void *ctx, double x), const void *ctx,
                       double lo, double hi, int steps);

#endif
